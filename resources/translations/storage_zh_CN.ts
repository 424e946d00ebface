<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>BucketBrowser</name>
    <message>
        <source>Browse buckets</source>
        <translation>浏览存储桶</translation>
    </message>
    <message>
        <source>Account: {name}</source>
        <translation>账号：{name}</translation>
    </message>
    <message>
        <source>&amp;Up</source>
        <translation>上一级(&amp;U)</translation>
    </message>
    <message>
        <source>One level up (Backspace)</source>
        <translation>返回上一级（Backspace）</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>List this level again (F5)</source>
        <translation>重新列出这一级（F5）</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>&amp;Choose this folder</source>
        <translation>选择此文件夹(&amp;C)</translation>
    </message>
    <message>
        <source>Buckets of {account}</source>
        <translation>{account} 的存储桶</translation>
    </message>
    <message>
        <source>The folder {name} cannot be opened: {why}.</source>
        <translation>无法打开文件夹 {name}：{why}。</translation>
    </message>
    <message>
        <source>&amp;Choose {name}</source>
        <translation>选择 {name}(&amp;C)</translation>
    </message>
    <message>
        <source>Listing…</source>
        <translation>正在列出…</translation>
    </message>
    <message>
        <source>Buckets: {count}. Open one to see its folders.</source>
        <translation>存储桶：{count} 个。打开一个即可查看其中的文件夹。</translation>
    </message>
    <message>
        <source>This account has no buckets yet. Create one in the cloud's console, then press Refresh.</source>
        <translation>这个账号还没有存储桶。请先在云控制台创建一个，然后点击“刷新”。</translation>
    </message>
    <message>
        <source>Here: folders {folders}, files {objects}.</source>
        <translation>这里：文件夹 {folders} 个，文件 {objects} 个。</translation>
    </message>
    <message>
        <source>Only the first {count} entries are shown.</source>
        <translation>只显示了前 {count} 项。</translation>
    </message>
    <message>
        <source>{count} names that cannot be a file or folder name here are not shown (a sync skips them and says so).</source>
        <translation>有 {count} 个名称不能作为这里的文件或文件夹名，未显示（同步时会跳过它们并告诉你）。</translation>
    </message>
    <message>
        <source>Everything below here: {size} (objects: {objects}).</source>
        <translation>此处以下共计：{size}（对象 {objects} 个）。</translation>
    </message>
    <message>
        <source>Below here at least {size} (objects: {objects}; counting stopped early).</source>
        <translation>此处以下至少 {size}（对象 {objects} 个；统计提前停止）。</translation>
    </message>
</context>
<context>
    <name>BucketPairs</name>
    <message>
        <source>{service}, account {account}</source>
        <translation>{service}，账号 {account}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>≥ {size}</source>
        <translation>≥ {size}</translation>
    </message>
    <message>
        <source>&lt; {cost}</source>
        <translation>&lt; {cost}</translation>
    </message>
    <message>
        <source>{size} · {cost}/month</source>
        <translation>{size} · {cost}/月</translation>
    </message>
    <message>
        <source>The size of {location} is not known: {why}</source>
        <translation>{location} 的大小未知：{why}</translation>
    </message>
    <message>
        <source>{location}: {size}, objects: {objects}.</source>
        <translation>{location}：{size}，对象 {objects} 个。</translation>
    </message>
    <message>
        <source>At least that much: there are too many objects to count them all.</source>
        <translation>至少这么多：对象太多，无法全部统计。</translation>
    </message>
    <message>
        <source>Storage price in {region}: {price} per GB-month (standard class), as of {date}, from:</source>
        <translation>{region} 的存储价格：每 GB 每月 {price}（标准存储），截至 {date}，来源：</translation>
    </message>
    <message>
        <source>No storage price is known for {region}; the monthly cost is not shown.</source>
        <translation>没有 {region} 的存储价格，因此不显示每月费用。</translation>
    </message>
    <message>
        <source>{instance}: {warning}</source>
        <translation>{instance}：{warning}</translation>
    </message>
    <message>
        <source>Size and storage cost are shown for bucket pairs.</source>
        <translation>存储桶同步对会显示大小和存储费用。</translation>
    </message>
    <message>
        <source>Listing the objects of {location} to add up their size…</source>
        <translation>正在列出 {location} 的对象以统计大小…</translation>
    </message>
    <message>
        <source>counting…</source>
        <translation>统计中…</translation>
    </message>
    <message>
        <source>Making the key {name} in your keyring…</source>
        <translation>正在密钥环中创建密钥 {name}…</translation>
    </message>
    <message>
        <source>Key {name} made. Save its recovery phrase: labgpu keys export {name}</source>
        <translation>已创建密钥 {name}。请保存它的恢复短语：labgpu keys export {name}</translation>
    </message>
</context>
<context>
    <name>LabGPU</name>
    <message>
        <source>{text!r} is not a bucket location.</source>
        <translation>{text!r} 不是存储桶位置。</translation>
    </message>
    <message>
        <source>Write it as s3://BUCKET/PREFIX (or cos://, oss://, obs://), e.g. cos://data-1250000000/imagenet.</source>
        <translation>请写成 s3://存储桶/前缀（或 cos://、oss://、obs://），例如 cos://data-1250000000/imagenet。</translation>
    </message>
    <message>
        <source>{bucket!r} cannot be the name of a bucket on {service}.</source>
        <translation>{bucket!r} 不能作为 {service} 的存储桶名称。</translation>
    </message>
    <message>
        <source>The object path {key!r} is refused: {why}.</source>
        <translation>已拒绝对象路径 {key!r}：{why}。</translation>
    </message>
    <message>
        <source>Use a prefix made of plain folder names separated by single '/', without '.' or '..'.</source>
        <translation>前缀请使用以单个“/”分隔的普通文件夹名，不要包含“.”或“..”。</translation>
    </message>
    <message>
        <source>it contains a '.' or '..' folder</source>
        <translation>其中包含“.”或“..”文件夹</translation>
    </message>
    <message>
        <source>it starts with '/' or contains '//'</source>
        <translation>它以“/”开头或包含“//”</translation>
    </message>
    <message>
        <source>it contains a control character or a backslash</source>
        <translation>其中包含控制字符或反斜杠</translation>
    </message>
    <message>
        <source>it is longer than the 1,024 bytes an object key may have</source>
        <translation>超过了对象键允许的 1,024 字节</translation>
    </message>
    <message>
        <source>An S3 bucket name has 3–63 lowercase letters, digits, '.' or '-', e.g. my-lab-data.</source>
        <translation>S3 存储桶名称由 3–63 个小写字母、数字、“.”或“-”组成，例如 my-lab-data。</translation>
    </message>
    <message>
        <source>A COS bucket name ends with your APPID, e.g. data-1250000000 (see the COS console).</source>
        <translation>COS 存储桶名称以你的 APPID 结尾，例如 data-1250000000（见 COS 控制台）。</translation>
    </message>
    <message>
        <source>An OSS bucket name has 3–63 lowercase letters, digits or '-'.</source>
        <translation>OSS 存储桶名称由 3–63 个小写字母、数字或“-”组成。</translation>
    </message>
    <message>
        <source>An OBS bucket name has 3–63 lowercase letters, digits, '.' or '-'.</source>
        <translation>OBS 存储桶名称由 3–63 个小写字母、数字、“.”或“-”组成。</translation>
    </message>
    <message>
        <source>{region!r} is not a region name.</source>
        <translation>{region!r} 不是地域名称。</translation>
    </message>
    <message>
        <source>Set the account's region, e.g. ap-guangzhou or us-east-1.</source>
        <translation>请设置账号的地域，例如 ap-guangzhou 或 us-east-1。</translation>
    </message>
    <message>
        <source>The Python package {module} is missing, so buckets cannot be used.</source>
        <translation>缺少 Python 包 {module}，无法使用存储桶。</translation>
    </message>
    <message>
        <source>Reinstall LabGPU (python3 main.py installs what it needs).</source>
        <translation>请重新安装 LabGPU（python3 main.py 会安装所需的包）。</translation>
    </message>
    <message>
        <source>{url} is a {service} location, but account '{account}' is a {provider} account.</source>
        <translation>{url} 是 {service} 的位置，但账号“{account}”属于 {provider}。</translation>
    </message>
    <message>
        <source>Choose an account of that cloud with --account (labgpu accounts lists them).</source>
        <translation>请用 --account 选择该云的账号（labgpu accounts 可列出账号）。</translation>
    </message>
    <message>
        <source>{key}: the service sent {got} of {want} bytes.</source>
        <translation>{key}：服务只发送了 {want} 字节中的 {got} 字节。</translation>
    </message>
    <message>
        <source>Run the sync again: the download continues where it stopped.</source>
        <translation>再运行一次同步：下载会从断点继续。</translation>
    </message>
    <message>
        <source>larger than the 5 TiB an object may have</source>
        <translation>超过对象允许的最大 5 TiB</translation>
    </message>
    <message>
        <source>{url} holds objects but no LabGPU key check object: it is not the location of an encrypted pair.</source>
        <translation>{url} 中有对象，但没有 LabGPU 的密钥校验对象：它不是加密同步对的位置。</translation>
    </message>
    <message>
        <source>Choose an empty prefix for an encrypted pair, or sync this one without encryption.</source>
        <translation>请为加密同步对选择一个空前缀，或不加密地同步这个位置。</translation>
    </message>
    <message>
        <source>Refusing to delete: part of the source could not be listed ({why}).</source>
        <translation>拒绝删除：源的一部分无法列出（{why}）。</translation>
    </message>
    <message>
        <source>Fix the permissions there, or sync without deleting.</source>
        <translation>请修复那里的权限，或不带删除地同步。</translation>
    </message>
    <message>
        <source>Run the sync again: finished files are kept and an interrupted upload continues where it stopped.</source>
        <translation>再运行一次同步：已完成的文件会保留，中断的上传会从断点继续。</translation>
    </message>
    <message>
        <source>The bucket {bucket} does not exist on {service} ({region}).</source>
        <translation>{service}（{region}）上不存在存储桶 {bucket}。</translation>
    </message>
    <message>
        <source>Check the bucket name and the account's region; labgpu buckets ls ACCOUNT lists your buckets.</source>
        <translation>请检查存储桶名称和账号的地域；labgpu buckets ls 账号名 可列出你的存储桶。</translation>
    </message>
    <message>
        <source>{service} refused access to {bucket} for account '{account}' (AccessDenied).</source>
        <translation>{service} 拒绝账号“{account}”访问 {bucket}（AccessDenied）。</translation>
    </message>
    <message>
        <source>Give the account's key permission on this bucket (list, read, write and delete objects, e.g. s3:ListBucket, s3:GetObject, s3:PutObject, s3:DeleteObject), or choose another account.</source>
        <translation>请为该账号的密钥授予此存储桶的权限（列出、读取、写入和删除对象，例如 s3:ListBucket、s3:GetObject、s3:PutObject、s3:DeleteObject），或换一个账号。</translation>
    </message>
    <message>
        <source>{service} does not know the access key of account '{account}'.</source>
        <translation>{service} 不认识账号“{account}”的访问密钥。</translation>
    </message>
    <message>
        <source>The key may have been deleted or belong to another cloud: enter it again in labgpu accounts.</source>
        <translation>该密钥可能已被删除或属于其他云：请在 labgpu accounts 中重新填写。</translation>
    </message>
    <message>
        <source>{service} refused the signature: the secret key of account '{account}' is wrong.</source>
        <translation>{service} 拒绝了签名：账号“{account}”的私有密钥不正确。</translation>
    </message>
    <message>
        <source>Enter the account's secret key again in labgpu accounts.</source>
        <translation>请在 labgpu accounts 中重新填写该账号的私有密钥。</translation>
    </message>
    <message>
        <source>The bucket {bucket} is in region {bucket_region}, not in {region}.</source>
        <translation>存储桶 {bucket} 位于地域 {bucket_region}，而不是 {region}。</translation>
    </message>
    <message>
        <source>Use an account whose region is {bucket_region}, or set that account's storage region to {bucket_region}.</source>
        <translation>请使用地域为 {bucket_region} 的账号，或把该账号的存储地域设为 {bucket_region}。</translation>
    </message>
    <message>
        <source>{service} kept asking LabGPU to slow down (SlowDown), still after {attempts} tries.</source>
        <translation>{service} 一直要求 LabGPU 降低请求速度（SlowDown），尝试 {attempts} 次后仍然如此。</translation>
    </message>
    <message>
        <source>Run the sync again in a few minutes, or with fewer parallel transfers; finished files are kept.</source>
        <translation>请过几分钟再同步，或减少并行传输数；已完成的文件会保留。</translation>
    </message>
    <message>
        <source>{service} refused {key}: larger than it accepts in one request.</source>
        <translation>{service} 拒绝了 {key}：超过单次请求允许的大小。</translation>
    </message>
    <message>
        <source>Please report this as a bug: LabGPU should have sent it in parts.</source>
        <translation>请把这个问题作为缺陷反馈：LabGPU 本应分片上传它。</translation>
    </message>
    <message>
        <source>The interrupted upload of {key} is no longer on {service} (it was completed or aborted).</source>
        <translation>{key} 中断的上传已不在 {service} 上（已完成或已中止）。</translation>
    </message>
    <message>
        <source>Run the sync again: that file is uploaded from its start.</source>
        <translation>再运行一次同步：该文件会从头上传。</translation>
    </message>
    <message>
        <source>{key} is no longer in the bucket {bucket}.</source>
        <translation>{key} 已不在存储桶 {bucket} 中。</translation>
    </message>
    <message>
        <source>It was removed while the sync ran; run the sync again.</source>
        <translation>它在同步过程中被删除了；请再运行一次同步。</translation>
    </message>
    <message>
        <source>{key} changed in the bucket while it was being downloaded.</source>
        <translation>{key} 在下载过程中被存储桶里的新版本替换了。</translation>
    </message>
    <message>
        <source>It was not put in place; run the sync again.</source>
        <translation>它没有被放到目标位置；请再运行一次同步。</translation>
    </message>
    <message>
        <source>{service} refused the request because this computer's clock is wrong.</source>
        <translation>{service} 拒绝了请求，因为这台电脑的时钟不准。</translation>
    </message>
    <message>
        <source>Let the computer set its clock automatically (NTP), then run the sync again.</source>
        <translation>请让电脑自动校准时间（NTP），然后再同步。</translation>
    </message>
    <message>
        <source>The temporary credentials of account '{account}' have expired.</source>
        <translation>账号“{account}”的临时凭证已过期。</translation>
    </message>
    <message>
        <source>Enter a fresh session token in labgpu accounts, or use a long-term key.</source>
        <translation>请在 labgpu accounts 中填写新的会话令牌，或改用长期密钥。</translation>
    </message>
    <message>
        <source>{service} could not use the KMS key for server-side encryption ({error_code}): {provider_message}</source>
        <translation>{service} 无法使用 KMS 密钥进行服务端加密（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Check the KMS key id and that the account may use it (encrypt and decrypt), or sync without --sse.</source>
        <translation>请检查 KMS 密钥 ID 以及该账号是否有权使用它（加密和解密），或不带 --sse 同步。</translation>
    </message>
    <message>
        <source>{service} refused the request ({error_code}): {provider_message}</source>
        <translation>{service} 拒绝了请求（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Look up {error_code} in the {service} documentation; quote request id {rid} if you contact support.</source>
        <translation>请在 {service} 文档中查找 {error_code}；联系客服时请提供请求 ID {rid}。</translation>
    </message>
    <message>
        <source>{service} refused the server-side encryption settings: {provider_message}</source>
        <translation>{service} 拒绝了服务端加密设置：{provider_message}</translation>
    </message>
    <message>
        <source>Check the KMS key id, or sync without --sse.</source>
        <translation>请检查 KMS 密钥 ID，或不带 --sse 同步。</translation>
    </message>
    <message>
        <source>{service} could not be reached at {endpoint} ({reason}).</source>
        <translation>无法连接 {service}（{endpoint}）：{reason}。</translation>
    </message>
    <message>
        <source>The sync was cancelled.</source>
        <translation>同步已取消。</translation>
    </message>
    <message>
        <source>Files already finished are kept; run it again to continue.</source>
        <translation>已完成的文件会保留；再运行一次即可继续。</translation>
    </message>
    <message>
        <source>A dry run tried to change something ({what}); refused.</source>
        <translation>试运行尝试修改内容（{what}），已拒绝。</translation>
    </message>
    <message>
        <source>Nothing was changed. Please report this as a bug.</source>
        <translation>没有任何改动。请把这个问题作为缺陷反馈。</translation>
    </message>
    <message>
        <source>{url} holds more than {limit} objects; LabGPU syncs at most that many at once.</source>
        <translation>{url} 中的对象超过 {limit} 个；LabGPU 一次最多同步这么多。</translation>
    </message>
    <message>
        <source>Sync a narrower prefix (a sub-folder of it) instead.</source>
        <translation>请改为同步更小的前缀（它的某个子文件夹）。</translation>
    </message>
    <message>
        <source>Local file error on {path}: {why}</source>
        <translation>本地文件 {path} 出错：{why}</translation>
    </message>
    <message>
        <source>Check the folder and its permissions.</source>
        <translation>请检查该文件夹及其权限。</translation>
    </message>
    <message>
        <source>Not enough space on this computer in {path}: {need} needed, {free} free.</source>
        <translation>这台电脑上 {path} 的空间不足：需要 {need}，可用 {free}。</translation>
    </message>
    <message>
        <source>Free some space or choose another local folder; nothing partial was left behind.</source>
        <translation>请清理一些空间或选择其他本地文件夹；没有留下不完整的文件。</translation>
    </message>
    <message>
        <source>{path} changed while it was being copied ({n} file(s)).</source>
        <translation>{path} 在复制过程中被修改了（共 {n} 个文件）。</translation>
    </message>
    <message>
        <source>It was not put in place (no half-old, half-new copy). Run the sync again when the file is no longer being written (e.g. after the training saved its checkpoint).</source>
        <translation>它没有被放到目标位置（不会留下一半旧一半新的副本）。请在文件不再被写入时（例如训练保存完检查点之后）再同步。</translation>
    </message>
    <message>
        <source>{n} file(s) failed sha256 verification, e.g. {path}.</source>
        <translation>{n} 个文件未通过 sha256 校验，例如 {path}。</translation>
    </message>
    <message>
        <source>They were not put in place; run the sync again. If it repeats, the object in the bucket is damaged: upload it again from a good copy.</source>
        <translation>它们没有被放到目标位置；请再运行一次同步。如果反复出现，说明存储桶中的对象已损坏：请用完好的副本重新上传。</translation>
    </message>
    <message>
        <source>The local path {path} is a file, not a folder.</source>
        <translation>本地路径 {path} 是文件，不是文件夹。</translation>
    </message>
    <message>
        <source>Give the folder that contains it (sync works on folders).</source>
        <translation>请指定包含它的文件夹（同步以文件夹为单位）。</translation>
    </message>
    <message>
        <source>The local folder {path} does not exist.</source>
        <translation>本地文件夹 {path} 不存在。</translation>
    </message>
    <message>
        <source>Check the path, or create the folder first.</source>
        <translation>请检查路径，或先创建该文件夹。</translation>
    </message>
    <message>
        <source>{service} did not delete {key} ({error_code}): {provider_message}</source>
        <translation>{service} 没有删除 {key}（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Check the account's delete permission on the bucket, then run again.</source>
        <translation>请检查该账号对存储桶的删除权限，然后再运行。</translation>
    </message>
    <message>
        <source>These objects were encrypted with another key (key id {found}; yours is {mine}).</source>
        <translation>这些对象是用另一个密钥加密的（密钥 ID {found}；你的是 {mine}）。</translation>
    </message>
    <message>
        <source>'{name}' was encrypted with another key (key id {found}; yours is {mine}).</source>
        <translation>“{name}”是用另一个密钥加密的（密钥 ID {found}；你的是 {mine}）。</translation>
    </message>
    <message>
        <source>Choose the key this pair was encrypted with (labgpu keys ls), or import it with 'labgpu keys import'.</source>
        <translation>请选择这个同步对加密时用的密钥（labgpu keys ls），或用“labgpu keys import”导入它。</translation>
    </message>
    <message>
        <source>An encrypted object is damaged or was changed without the key.</source>
        <translation>有一个加密对象已损坏，或被没有密钥的人改动过。</translation>
    </message>
    <message>
        <source>The encrypted object '{name}' is damaged or was changed without the key.</source>
        <translation>加密对象“{name}”已损坏，或被没有密钥的人改动过。</translation>
    </message>
    <message>
        <source>LabGPU did not decrypt it. Upload it again from a good copy, or delete it from the bucket.</source>
        <translation>LabGPU 没有解密它。请从完好的副本重新上传，或把它从存储桶中删除。</translation>
    </message>
    <message>
        <source>'{name}' is not an object LabGPU encrypted.</source>
        <translation>“{name}”不是 LabGPU 加密的对象。</translation>
    </message>
    <message>
        <source>This is not an object LabGPU encrypted.</source>
        <translation>这不是 LabGPU 加密的对象。</translation>
    </message>
    <message>
        <source>Another program wrote it, or it was damaged. Encrypted pairs only read what LabGPU encrypted.</source>
        <translation>它是别的程序写入的，或者已损坏。加密的同步对只读取 LabGPU 加密的内容。</translation>
    </message>
    <message>
        <source>This object was encrypted by a newer LabGPU (format {version}).</source>
        <translation>这个对象是由更新版本的 LabGPU 加密的（格式 {version}）。</translation>
    </message>
    <message>
        <source>Update LabGPU, then sync again.</source>
        <translation>请更新 LabGPU，然后重新同步。</translation>
    </message>
    <message>
        <source>The encrypted name '{name}' is damaged or was made with another key.</source>
        <translation>加密名称“{name}”已损坏，或是用另一个密钥生成的。</translation>
    </message>
    <message>
        <source>LabGPU leaves this object alone. Check that the pair uses the right key.</source>
        <translation>LabGPU 不会动这个对象。请检查这个同步对用的密钥是否正确。</translation>
    </message>
    <message>
        <source>The name '{name}' is longer than {limit} bytes and cannot be encrypted.</source>
        <translation>名称“{name}”超过 {limit} 字节，无法加密。</translation>
    </message>
    <message>
        <source>Rename it to something shorter, then sync again.</source>
        <translation>请把它改成更短的名称，然后重新同步。</translation>
    </message>
    <message>
        <source>An encryption key must be 32 bytes.</source>
        <translation>加密密钥必须是 32 字节。</translation>
    </message>
    <message>
        <source>Create a key with 'labgpu keys new' or import one with 'labgpu keys import'.</source>
        <translation>请用“labgpu keys new”创建密钥，或用“labgpu keys import”导入密钥。</translation>
    </message>
    <message>
        <source>There is no encryption key named '{name}' on this computer.</source>
        <translation>这台电脑上没有名为“{name}”的加密密钥。</translation>
    </message>
    <message>
        <source>Import it from its recovery phrase with 'labgpu keys import {name}', or list the keys with 'labgpu keys ls'.</source>
        <translation>请用“labgpu keys import {name}”从恢复短语导入它，或用“labgpu keys ls”查看已有密钥。</translation>
    </message>
    <message>
        <source>The keyring has no secret for the encryption key '{name}'.</source>
        <translation>密钥环里没有加密密钥“{name}”的密钥内容。</translation>
    </message>
    <message>
        <source>The keyring's secret for the encryption key '{name}' is not the key LabGPU recorded (key id {key_id}).</source>
        <translation>密钥环里加密密钥“{name}”的内容与 LabGPU 记录的密钥不一致（密钥 ID {key_id}）。</translation>
    </message>
    <message>
        <source>A recovery phrase has {expected} characters in {groups} groups; this one has {count}.</source>
        <translation>恢复短语共有 {expected} 个字符，分 {groups} 组；你输入的有 {count} 个。</translation>
    </message>
    <message>
        <source>The recovery phrase has a character that cannot be in one: '{char}'.</source>
        <translation>恢复短语里有一个不可能出现的字符：“{char}”。</translation>
    </message>
    <message>
        <source>The recovery phrase does not match its check group: it has a typo.</source>
        <translation>恢复短语与它的校验组不符：其中有输入错误。</translation>
    </message>
    <message>
        <source>The recovery phrase does not match its check group: group {group} looks mistyped.</source>
        <translation>恢复短语与它的校验组不符：第 {group} 组看起来输错了。</translation>
    </message>
    <message>
        <source>Copy the phrase again from where you kept it. Hyphens, spaces and case do not matter.</source>
        <translation>请从你保存的地方重新复制短语。连字符、空格和大小写都不影响。</translation>
    </message>
    <message>
        <source>'{name}' cannot be the name of an encryption key.</source>
        <translation>“{name}”不能用作加密密钥的名称。</translation>
    </message>
    <message>
        <source>Use letters, digits, '.', '_' or '-' (at most 63).</source>
        <translation>请使用字母、数字、“.”、“_”或“-”（最多 63 个字符）。</translation>
    </message>
    <message>
        <source>An encryption key named '{name}' already exists.</source>
        <translation>已有名为“{name}”的加密密钥。</translation>
    </message>
    <message>
        <source>Choose another name. Removing a key makes what it encrypted unreadable unless you kept its recovery phrase.</source>
        <translation>请换一个名称。删除密钥后，除非你保存了它的恢复短语，否则它加密的内容将无法读取。</translation>
    </message>
    <message>
        <source>'{text}' is not a server-side encryption LabGPU knows.</source>
        <translation>LabGPU 不认识“{text}”这种服务端加密方式。</translation>
    </message>
    <message>
        <source>Use --sse kms (the service's default key) or --sse kms:KEYID.</source>
        <translation>请使用 --sse kms（服务的默认密钥）或 --sse kms:KEYID。</translation>
    </message>
    <message>
        <source>'{key_id}' is not a KMS key id.</source>
        <translation>“{key_id}”不是 KMS 密钥 ID。</translation>
    </message>
    <message>
        <source>Copy the key's id or ARN from the cloud console's KMS page.</source>
        <translation>请从云控制台的 KMS 页面复制密钥的 ID 或 ARN。</translation>
    </message>
    <message>
        <source>{service} does not take KMS encryption per object through its S3-compatible API.</source>
        <translation>{service} 的 S3 兼容接口不接受按对象指定的 KMS 加密。</translation>
    </message>
    <message>
        <source>Turn on the bucket's default encryption with KMS in the {service} console and sync without --sse: every object LabGPU uploads is then encrypted by the service. Or use --encrypt (a LabGPU key).</source>
        <translation>请在 {service} 控制台为存储桶开启 KMS 默认加密，然后不带 --sse 同步：之后 LabGPU 上传的每个对象都会由服务加密。或者使用 --encrypt（LabGPU 密钥）。</translation>
    </message>
    <message>
        <source>The bucket is in {bucket_region} and the instance in {instance_region}: data leaves the bucket's region, moves more slowly and may be charged as egress, up to {egress} {currency} per GB.</source>
        <translation>存储桶在 {bucket_region}，实例在 {instance_region}：数据会离开存储桶所在地域，传输更慢，且可能按流出流量计费，最高每 GB {egress} {currency}。</translation>
    </message>
    <message>
        <source>The bucket is in {bucket_region} and the instance in {instance_region}: data leaves the bucket's region, moves more slowly and may be charged as egress (LabGPU has no price for {bucket_region}).</source>
        <translation>存储桶在 {bucket_region}，实例在 {instance_region}：数据会离开存储桶所在地域，传输更慢，且可能按流出流量计费（LabGPU 没有 {bucket_region} 的价格）。</translation>
    </message>
    <message>
        <source>The bucket is on {bucket_cloud} ({bucket_region}) and the instance on {instance_cloud}: data crosses the internet, moves more slowly and {bucket_cloud} charges internet egress, {egress} {currency} per GB.</source>
        <translation>存储桶在 {bucket_cloud}（{bucket_region}），实例在 {instance_cloud}：数据经过公网传输，速度更慢，{bucket_cloud} 会收取公网流出流量费，每 GB {egress} {currency}。</translation>
    </message>
    <message>
        <source>The bucket is on {bucket_cloud} ({bucket_region}) and the instance on {instance_cloud}: data crosses the internet, moves more slowly and {bucket_cloud} charges internet egress (LabGPU has no price for {bucket_region}).</source>
        <translation>存储桶在 {bucket_cloud}（{bucket_region}），实例在 {instance_cloud}：数据经过公网传输，速度更慢，{bucket_cloud} 会收取公网流出流量费（LabGPU 没有 {bucket_region} 的价格）。</translation>
    </message>
    <message>
        <source>LabGPU has no {cloud} account for {url}.</source>
        <translation>LabGPU 里没有可用于 {url} 的{cloud}账号。</translation>
    </message>
    <message>
        <source>Add one with 'labgpu accounts add {provider} NAME --region REGION', then pass --account NAME.</source>
        <translation>先用 'labgpu accounts add {provider} NAME --region REGION' 添加一个，再用 --account NAME 指定。</translation>
    </message>
    <message>
        <source>Several {cloud} accounts could reach {url}: {names}.</source>
        <translation>有多个{cloud}账号都能访问 {url}：{names}。</translation>
    </message>
    <message>
        <source>Choose one with --account NAME.</source>
        <translation>用 --account NAME 选一个。</translation>
    </message>
    <message>
        <source>{n} presigned link(s) expired before {host} could use them ({first}).</source>
        <translation>{n} 个预签名链接在 {host} 使用之前就已过期（{first}）。</translation>
    </message>
    <message>
        <source>Run the sync again: LabGPU signs new links for what is left. If it repeats, check this computer's clock (links are signed with it) and the instance's link to the bucket.</source>
        <translation>请再次运行同步：LabGPU 会为剩下的文件签发新链接。如果反复出现，请检查这台电脑的时钟（链接用它签名）以及实例到存储桶的网络。</translation>
    </message>
    <message>
        <source>{where} holds more than {n} files; LabGPU stops listing there.</source>
        <translation>{where} 中的文件超过 {n} 个，LabGPU 在此停止列出。</translation>
    </message>
    <message>
        <source>Sync a smaller folder or prefix.</source>
        <translation>请同步一个更小的文件夹或前缀。</translation>
    </message>
    <message>
        <source>{host}:{remote} is not a folder LabGPU can read.</source>
        <translation>{host}:{remote} 不是 LabGPU 能读取的文件夹。</translation>
    </message>
    <message>
        <source>Check the folder's name on the host (labgpu sync HOST:DIR URL).</source>
        <translation>请检查主机上的文件夹名称（labgpu sync HOST:DIR URL）。</translation>
    </message>
    <message>
        <source>the bucket answered {code} to the instance: {why}</source>
        <translation>存储桶对实例的回应是 {code}：{why}</translation>
    </message>
    <message>
        <source>the instance could not reach the bucket: {why}</source>
        <translation>实例无法连接到存储桶：{why}</translation>
    </message>
    <message>
        <source>the bucket holds {got} bytes after the upload instead of {want}</source>
        <translation>上传后存储桶中是 {got} 字节，而不是 {want} 字节</translation>
    </message>
    <message>
        <source>not a regular file (a link or a device): not copied</source>
        <translation>不是普通文件（链接或设备）：未复制</translation>
    </message>
    <message>
        <source>cancelled before it was transferred</source>
        <translation>在传输前已取消</translation>
    </message>
    <message>
        <source>part {n} failed ({why}); the multipart upload was aborted</source>
        <translation>第 {n} 个分片失败（{why}）；分片上传已中止</translation>
    </message>
    <message>
        <source>The object path {key!r} is refused for the instance: {why}.</source>
        <translation>对象路径 {key!r} 不能传到实例上：{why}。</translation>
    </message>
    <message>
        <source>Rename the object (plain folder names separated by '/'), or sync a prefix without it.</source>
        <translation>请重命名该对象（用单个 '/' 分隔的普通文件夹名），或同步一个不包含它的前缀。</translation>
    </message>
    <message>
        <source>it is not a safe file name on the instance</source>
        <translation>它在实例上不是安全的文件名</translation>
    </message>
    <message>
        <source>{host} has no program LabGPU can fetch with (curl, GNU wget or python3).</source>
        <translation>{host} 上没有 LabGPU 可用来下载的程序（curl、GNU wget 或 python3）。</translation>
    </message>
    <message>
        <source>Install curl on the instance (e.g. sudo apt-get install curl), or sync through this computer instead.</source>
        <translation>请在实例上安装 curl（例如 sudo apt-get install curl），或改为经由这台电脑同步。</translation>
    </message>
    <message>
        <source>{host} has neither curl nor python3, which LabGPU needs to upload from it to a bucket (BusyBox wget cannot send a PUT).</source>
        <translation>{host} 上既没有 curl 也没有 python3，而 LabGPU 需要其中之一才能从它上传到存储桶（BusyBox wget 无法发送 PUT 请求）。</translation>
    </message>
    <message>
        <source>Install curl or python3 on the instance, or download the folder to this computer and upload it from here.</source>
        <translation>请在实例上安装 curl 或 python3，或先把文件夹下载到这台电脑，再从这里上传。</translation>
    </message>
    <message>
        <source>{host} gave an answer LabGPU cannot read while transferring with the bucket.</source>
        <translation>{host} 在与存储桶传输时给出了 LabGPU 无法读取的回应。</translation>
    </message>
    <message>
        <source>Try again; if it repeats, check that /bin/sh works on the host.</source>
        <translation>请重试；如果反复出现，请检查主机上的 /bin/sh 是否可用。</translation>
    </message>
    <message>
        <source>encryption keys for bucket pairs (kept in the system keyring)</source>
        <translation>存储桶同步对的加密密钥（保存在系统密钥环中）</translation>
    </message>
    <message>
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>create a key (then keep its recovery phrase: labgpu keys export NAME)</source>
        <translation>创建密钥（之后请保存其恢复短语：labgpu keys export NAME）</translation>
    </message>
    <message>
        <source>a name for the key, e.g. lab</source>
        <translation>密钥名称，例如 lab</translation>
    </message>
    <message>
        <source>list the keys on this computer (names and key ids, never a key)</source>
        <translation>列出这台电脑上的密钥（只显示名称和密钥 ID，不显示密钥本身）</translation>
    </message>
    <message>
        <source>print a key's recovery phrase (to a terminal only)</source>
        <translation>打印密钥的恢复短语（仅输出到终端）</translation>
    </message>
    <message>
        <source>Prints the recovery phrase. Anyone with it can read what the key encrypted. Into a pipe or a file only with --show-phrase.</source>
        <translation>打印恢复短语。任何拿到它的人都能读取该密钥加密的内容。只有加 --show-phrase 才会输出到管道或文件。</translation>
    </message>
    <message>
        <source>key name (labgpu keys ls)</source>
        <translation>密钥名称（labgpu keys ls）</translation>
    </message>
    <message>
        <source>print it even when stdout is not a terminal (a pipe, a file)</source>
        <translation>即使标准输出不是终端（管道、文件）也打印</translation>
    </message>
    <message>
        <source>store a key from its recovery phrase (prompted, or one line on stdin)</source>
        <translation>用恢复短语存入密钥（提示输入，或从标准输入读一行）</translation>
    </message>
    <message>
        <source>a name for the key on this computer</source>
        <translation>这台电脑上的密钥名称</translation>
    </message>
    <message>
        <source>delete a key from this computer (what it encrypted stays unreadable without its recovery phrase)</source>
        <translation>从这台电脑删除密钥（没有恢复短语，它加密的内容将无法读取）</translation>
    </message>
    <message>
        <source>do not ask (needed when stdin is not a terminal)</source>
        <translation>不询问（标准输入不是终端时需要）</translation>
    </message>
    <message>
        <source>Created the key {name} (key id {key_id}); it is in the system keyring.
Keep its recovery phrase somewhere safe (without it, a lost computer means lost data): labgpu keys export {name}</source>
        <translation>已创建密钥 {name}（密钥 ID {key_id}），已存入系统密钥环。
请妥善保存它的恢复短语（没有它，电脑丢失就意味着数据丢失）：labgpu keys export {name}</translation>
    </message>
    <message>
        <source>No encryption keys. Create one: labgpu keys new NAME</source>
        <translation>还没有加密密钥。创建一个：labgpu keys new NAME</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>KEY ID</source>
        <translation>密钥 ID</translation>
    </message>
    <message>
        <source>SOURCE</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>CREATED</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <source>LabGPU prints a recovery phrase only to a terminal.</source>
        <translation>LabGPU 只会把恢复短语打印到终端。</translation>
    </message>
    <message>
        <source>Run it in a terminal, or add --show-phrase to write it into a pipe or a file (anyone who reads it can decrypt your data).</source>
        <translation>请在终端里运行，或加上 --show-phrase 把它写入管道或文件（任何读到它的人都能解密你的数据）。</translation>
    </message>
    <message>
        <source>Recovery phrase of {name} (key id {key_id}). Write it down or keep it in a password manager; anyone with it can read what this key encrypted:
</source>
        <translation>{name} 的恢复短语（密钥 ID {key_id}）。请抄下来或存进密码管理器；任何拿到它的人都能读取此密钥加密的内容：
</translation>
    </message>
    <message>
        <source>On another computer: labgpu keys import {name}</source>
        <translation>在另一台电脑上：labgpu keys import {name}</translation>
    </message>
    <message>
        <source>No recovery phrase was typed.</source>
        <translation>没有输入恢复短语。</translation>
    </message>
    <message>
        <source>Run the command again and type or paste the phrase.</source>
        <translation>请重新运行命令，输入或粘贴恢复短语。</translation>
    </message>
    <message>
        <source>Imported the key {name} (key id {key_id}) into the system keyring.</source>
        <translation>已将密钥 {name}（密钥 ID {key_id}）导入系统密钥环。</translation>
    </message>
    <message>
        <source>Removing the key '{name}' needs a confirmation.</source>
        <translation>删除密钥“{name}”需要确认。</translation>
    </message>
    <message>
        <source>Add --yes. What it encrypted stays readable only with its recovery phrase (labgpu keys export {name}).</source>
        <translation>请加上 --yes。之后它加密的内容只能凭它的恢复短语读取（labgpu keys export {name}）。</translation>
    </message>
    <message>
        <source>Nothing removed.</source>
        <translation>未删除任何内容。</translation>
    </message>
    <message>
        <source>Removed the key {name} (key id {key_id}) from this computer.</source>
        <translation>已从这台电脑删除密钥 {name}（密钥 ID {key_id}）。</translation>
    </message>
    <message>
        <source>list an account's buckets or a folder in one</source>
        <translation>列出账号的存储桶或其中某个文件夹</translation>
    </message>
    <message>
        <source>Object storage (S3, Tencent COS, Alibaba OSS, Huawei OBS) seen through a cloud account: its buckets, or one level of a bucket location.</source>
        <translation>通过云账号查看对象存储（S3、腾讯云 COS、阿里云 OSS、华为云 OBS）：列出存储桶，或存储桶位置下的一层内容。</translation>
    </message>
    <message>
        <source>list buckets, or the folders and objects below a bucket location</source>
        <translation>列出存储桶，或存储桶位置下的文件夹和对象</translation>
    </message>
    <message>
        <source>a cloud account (labgpu accounts ls)</source>
        <translation>云账号（labgpu accounts ls）</translation>
    </message>
    <message>
        <source>a bucket location, e.g. s3://my-lab-data/imagenet (cos://, oss://, obs://)</source>
        <translation>存储桶位置，例如 s3://my-lab-data/imagenet（cos://、oss://、obs://）</translation>
    </message>
    <message>
        <source>list at most N entries (default 1000)</source>
        <translation>最多列出 N 项（默认 1000）</translation>
    </message>
    <message>
        <source>print JSON</source>
        <translation>输出 JSON</translation>
    </message>
    <message>
        <source>BUCKET</source>
        <translation>存储桶</translation>
    </message>
    <message>
        <source>SIZE</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>MODIFIED</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <source>more than {limit} entries; only the first {limit} are shown (--max N, up to 1000)</source>
        <translation>超过 {limit} 项；只显示前 {limit} 项（--max N，最多 1000）</translation>
    </message>
    <message>
        <source>{hidden} object name(s) that cannot be a local path are not shown</source>
        <translation>{hidden} 个无法作为本地路径的对象名未显示</translation>
    </message>
</context>
</TS>