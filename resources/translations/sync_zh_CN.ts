<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>The connection was lost during the sync ({why}).</source>
        <translation>同步过程中连接断开（{why}）。</translation>
    </message>
    <message>
        <source>Run the sync again: finished files are kept and the interrupted one continues where it stopped.</source>
        <translation>请重新运行同步：已完成的文件会保留，中断的文件会从断点继续。</translation>
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
        <source>Refused the unsafe file name {name!r}.</source>
        <translation>已拒绝不安全的文件名 {name!r}。</translation>
    </message>
    <message>
        <source>Refused to write {name!r}: it would land outside the destination folder.</source>
        <translation>已拒绝写入 {name!r}：它会落在目标文件夹之外。</translation>
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
        <source>The remote folder {path} does not exist.</source>
        <translation>远程文件夹 {path} 不存在。</translation>
    </message>
    <message>
        <source>Check the remote path (relative paths start in the login folder).</source>
        <translation>请检查远程路径（相对路径从登录目录开始）。</translation>
    </message>
    <message>
        <source>Could not create the remote folder {path}: {why}</source>
        <translation>无法创建远程文件夹 {path}：{why}</translation>
    </message>
    <message>
        <source>Check the path and your permissions there.</source>
        <translation>请检查该路径以及你在那里的权限。</translation>
    </message>
    <message>
        <source>Could not finish {path} on the server: {why}</source>
        <translation>无法在服务器上完成 {path}：{why}</translation>
    </message>
    <message>
        <source>Permission denied writing {path} on the server.</source>
        <translation>在服务器上写入 {path} 时权限被拒绝。</translation>
    </message>
    <message>
        <source>Choose a remote folder you can write to.</source>
        <translation>请选择一个你有写权限的远程文件夹。</translation>
    </message>
    <message>
        <source>The server could not write {path}: {why}</source>
        <translation>服务器无法写入 {path}：{why}</translation>
    </message>
    <message>
        <source>The server did not answer for {seconds:.0f} s while LabGPU was waiting for {what}.</source>
        <translation>LabGPU 在等待 {what} 时，服务器 {seconds:.0f} 秒没有回应。</translation>
    </message>
    <message>
        <source>Run the sync again: finished files are kept and an interrupted one continues where it stopped. If it repeats, something on the server hangs (check it, or its load).</source>
        <translation>请重新运行同步：已完成的文件会保留，中断的文件会从停下的位置继续。如果反复出现，说明服务器上有东西卡住了（检查服务器或它的负载）。</translation>
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
        <source>The server&apos;s answer to {what} could not be trusted (it was cut or not framed): {sample}</source>
        <translation>服务器对 {what} 的回答不可信（被截断或缺少标记）：{sample}</translation>
    </message>
    <message>
        <source>Nothing was changed by this step. Run the sync again; if it repeats, the login shell on the server may print text or exit early (check ~/.bashrc there).</source>
        <translation>这一步没有改动任何内容。请重新运行同步；如果反复出现，可能是服务器的登录 shell 输出了文字或提前退出（检查那里的 ~/.bashrc）。</translation>
    </message>
    <message>
        <source>The server&apos;s host key is not the one LabGPU trusts ({why}); refused.</source>
        <translation>服务器的主机密钥不是 LabGPU 信任的那个（{why}），已拒绝连接。</translation>
    </message>
    <message>
        <source>Only if your provider confirms the server was rebuilt: forget its host key on the Hosts page (&apos;labgpu hosts forget-key NAME&apos;) and connect again.</source>
        <translation>仅当服务商确认服务器已重建时：在“主机”页忘记它的主机密钥（&apos;labgpu hosts forget-key NAME&apos;），再重新连接。</translation>
    </message>
    <message>
        <source>The server refused the login ({why}).</source>
        <translation>服务器拒绝了登录（{why}）。</translation>
    </message>
    <message>
        <source>Check the user name and key or password: remove the host and add it again with the right ones.</source>
        <translation>请检查用户名以及密钥或密码：删除该主机，再用正确的信息重新添加。</translation>
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
        <source>Download into a folder: give a folder path.</source>
        <translation>下载目标必须是文件夹：请给出文件夹路径。</translation>
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
        <source>Could not look at the remote folder {path}: {why}</source>
        <translation>无法查看远程文件夹 {path}：{why}</translation>
    </message>
    <message>
        <source>The remote path {path} is not a folder.</source>
        <translation>远程路径 {path} 不是文件夹。</translation>
    </message>
    <message>
        <source>Check free space and permissions on the server.</source>
        <translation>请检查服务器上的剩余空间和权限。</translation>
    </message>
    <message>
        <source>Could not read {path} on the server.</source>
        <translation>无法读取服务器上的 {path}。</translation>
    </message>
    <message>
        <source>It may have been removed or be unreadable; run the sync again.</source>
        <translation>它可能已被删除或不可读；请重新运行同步。</translation>
    </message>
    <message>
        <source>Could not read {path} on the server: {why}</source>
        <translation>无法读取服务器上的 {path}：{why}</translation>
    </message>
    <message>
        <source>{n} file(s) failed sha256 verification, e.g. {path}.</source>
        <translation>{n} 个文件未通过 sha256 校验，例如 {path}。</translation>
    </message>
    <message>
        <source>They were not put in place; run the sync again. If it repeats, the source is changing or a disk is faulty.</source>
        <translation>这些文件没有放到最终位置；请重新运行同步。如果反复出现，说明源文件正在变化或磁盘有故障。</translation>
    </message>
    <message>
        <source>Could not delete {path} on the server: {why}</source>
        <translation>无法删除服务器上的 {path}：{why}</translation>
    </message>
    <message>
        <source>Not enough space on the server in {path}: {need} needed, {free} free.</source>
        <translation>服务器上 {path} 空间不足：需要 {need}，剩余 {free}。</translation>
    </message>
    <message>
        <source>Free space on the server or sync into a larger disk; nothing partial was left behind.</source>
        <translation>请在服务器上释放空间或同步到更大的磁盘；没有留下任何不完整的文件。</translation>
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
        <source>The local folder {path} cannot be read ({why}).</source>
        <translation>无法读取本地文件夹 {path}（{why}）。</translation>
    </message>
    <message>
        <source>Check the folder&apos;s permissions (you need to be able to open it), or choose another folder.</source>
        <translation>请检查该文件夹的权限（需要能打开它），或换一个文件夹。</translation>
    </message>
    <message>
        <source>Files cannot be written into the local folder {path}.</source>
        <translation>无法向本地文件夹 {path} 写入文件。</translation>
    </message>
    <message>
        <source>Check the folder&apos;s permissions (you need to be able to write into it), or choose another folder.</source>
        <translation>请检查该文件夹的权限（需要能写入），或换一个文件夹。</translation>
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
        <source>{path} changed while it was being copied.</source>
        <translation>{path} 在复制过程中发生了变化。</translation>
    </message>
    <message>
        <source>Run the sync again when the file is no longer being written.</source>
        <translation>请在该文件不再被写入后重新运行同步。</translation>
    </message>
    <message>
        <source>The server listed {path} with an impossible modification time ({value}).</source>
        <translation>服务器列出的 {path} 的修改时间不可能存在（{value}）。</translation>
    </message>
    <message>
        <source>Nothing was copied. The host&apos;s file listing cannot be trusted: check the host (its find may be replaced), or set a real time on the file (touch it) and sync again.</source>
        <translation>没有复制任何文件。该主机的文件列表不可信：请检查主机（它的 find 可能被替换了），或给该文件设置一个真实的时间（touch 一下）后再同步。</translation>
    </message>
    <message>
        <source>{path} changed while it was being copied, and again when it was fetched once more ({n} file(s)).</source>
        <translation>{path} 在复制过程中发生了变化，重新获取时又变了（共 {n} 个文件）。</translation>
    </message>
    <message>
        <source>It was not put in place (no half-old, half-new copy). Run the sync again when the file is no longer being written (e.g. after the training saved its checkpoint).</source>
        <translation>它没有被放到目标位置（不会留下一半旧一半新的副本）。请在文件不再被写入时（例如训练保存完检查点之后）再同步。</translation>
    </message>
    <message>
        <source>new file</source>
        <translation>新文件</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>已修改</translation>
    </message>
    <message>
        <source>content differs (checksum)</source>
        <translation>内容不同（校验和）</translation>
    </message>
    <message>
        <source>destination is newer</source>
        <translation>目标文件较新</translation>
    </message>
    <message>
        <source>destination is newer (overwritten: force)</source>
        <translation>目标文件较新（已强制覆盖）</translation>
    </message>
    <message>
        <source>a folder and a file have the same name</source>
        <translation>文件夹与文件同名</translation>
    </message>
    <message>
        <source>destination parent is not a folder</source>
        <translation>目标的上级不是文件夹</translation>
    </message>
    <message>
        <source>not in source (mirror)</source>
        <translation>源中不存在（镜像）</translation>
    </message>
    <message>
        <source>unsafe name refused</source>
        <translation>已拒绝不安全的名称</translation>
    </message>
    <message>
        <source>symbolic link not followed</source>
        <translation>未跟随符号链接</translation>
    </message>
    <message>
        <source>not a regular file</source>
        <translation>不是普通文件</translation>
    </message>
    <message>
        <source>The remote folder {path!r} contains a control character.</source>
        <translation>远程文件夹 {path!r} 含有控制字符。</translation>
    </message>
    <message>
        <source>Type the folder name without control characters.</source>
        <translation>请输入不含控制字符的文件夹名。</translation>
    </message>
    <message>
        <source>The remote folder {path!r} goes up with &apos;..&apos;.</source>
        <translation>远程文件夹 {path!r} 用 &apos;..&apos; 跳到了上一级。</translation>
    </message>
    <message>
        <source>Write the folder without &apos;..&apos; (an absolute path like /data/x works).</source>
        <translation>请写不含 &apos;..&apos; 的路径（可以用 /data/x 这样的绝对路径）。</translation>
    </message>
    <message>
        <source>sync a local folder with a folder on a saved host or a bucket</source>
        <translation>在本地文件夹与已保存主机上的文件夹或存储桶之间同步</translation>
    </message>
    <message>
        <source>Upload LOCAL&apos;s contents into REMOTE on host NAME or into a bucket location (with --down: REMOTE&apos;s into LOCAL). Unchanged files (same size and mtime) are skipped; a destination file newer than the source is never overwritten unless --force. A bucket and a host folder (cos://b/p gpu1:~/data, or the other way round) sync directly: the host fetches with short-lived presigned URLs and never holds a key.</source>
        <translation>把 LOCAL 的内容上传到主机 NAME 的 REMOTE 或存储桶位置（加 --down 则把 REMOTE 下载到 LOCAL）。未变化的文件（大小和修改时间相同）会跳过；目标中比源更新的文件不会被覆盖，除非加 --force。存储桶与主机文件夹之间（cos://b/p gpu1:~/data，或反过来）直接同步：主机用短时有效的预签名 URL 传输，从不持有密钥。</translation>
    </message>
    <message>
        <source>local folder (or a bucket URL / NAME:REMOTE, see above)</source>
        <translation>本地文件夹（或存储桶 URL / NAME:REMOTE，见上文）</translation>
    </message>
    <message>
        <source>saved host (labgpu hosts add) and remote folder, e.g. gpu1:~/data; or a bucket location s3://BUCKET/PREFIX (cos://, oss://, obs://)</source>
        <translation>已保存的主机（labgpu hosts add）和远程文件夹，例如 gpu1:~/data；或存储桶位置 s3://BUCKET/PREFIX（cos://、oss://、obs://）</translation>
    </message>
    <message>
        <source>download REMOTE into LOCAL</source>
        <translation>把 REMOTE 下载到 LOCAL</translation>
    </message>
    <message>
        <source>mirror: delete destination files missing from the source (preview with --dry-run)</source>
        <translation>镜像：删除源中没有的目标文件（可用 --dry-run 预览）</translation>
    </message>
    <message>
        <source>show what would change; change nothing</source>
        <translation>显示将发生的变化，但不做任何修改</translation>
    </message>
    <message>
        <source>compare sha256 of unchanged-looking files and verify every transferred file</source>
        <translation>比较看似未变化文件的 sha256，并校验每个传输的文件</translation>
    </message>
    <message>
        <source>exclude paths matching PATTERN (.gitignore syntax); repeatable</source>
        <translation>排除匹配 PATTERN 的路径（.gitignore 语法）；可重复</translation>
    </message>
    <message>
        <source>also honour .gitignore files in the source</source>
        <translation>同时遵循源目录中的 .gitignore 文件</translation>
    </message>
    <message>
        <source>do not skip .git/, __pycache__/, .ipynb_checkpoints/</source>
        <translation>不跳过 .git/、__pycache__/、.ipynb_checkpoints/</translation>
    </message>
    <message>
        <source>overwrite destination files that are newer</source>
        <translation>覆盖较新的目标文件</translation>
    </message>
    <message>
        <source>bandwidth limit in KiB/s</source>
        <translation>带宽上限，单位 KiB/s</translation>
    </message>
    <message>
        <source>parallel SFTP channels (default 4)</source>
        <translation>并行 SFTP 通道数（默认 4）</translation>
    </message>
    <message>
        <source>fail a remote step after this long without an answer (default 120)</source>
        <translation>远程步骤超过这么久没有回应即判为失败（默认 120）</translation>
    </message>
    <message>
        <source>bucket: the cloud account that reaches it (default: the only account of that cloud)</source>
        <translation>存储桶：能访问它的云账号（默认：该云的唯一账号）</translation>
    </message>
    <message>
        <source>bucket: encrypt names and contents on this computer (AES-256-GCM) with a LabGPU key</source>
        <translation>存储桶：在这台电脑上用 LabGPU 密钥加密文件名和内容（AES-256-GCM）</translation>
    </message>
    <message>
        <source>with --encrypt: the key&apos;s name in the keyring (default &apos;default&apos;; created when missing)</source>
        <translation>配合 --encrypt：密钥在密钥环中的名称（默认 &apos;default&apos;；不存在时创建）</translation>
    </message>
    <message>
        <source>bucket: ask the service to encrypt with its KMS (optionally this key id)</source>
        <translation>存储桶：请服务端用其 KMS 加密（可指定此密钥 ID）</translation>
    </message>
    <message>
        <source>print one JSON summary object</source>
        <translation>输出一个 JSON 汇总对象</translation>
    </message>
    <message>
        <source>Expected NAME:REMOTE, got {text!r}.</source>
        <translation>应为 NAME:REMOTE，实际是 {text!r}。</translation>
    </message>
    <message>
        <source>Write the saved host name, a colon and the remote folder, e.g. gpu1:~/data.</source>
        <translation>请写已保存的主机名、一个冒号和远程文件夹，例如 gpu1:~/data。</translation>
    </message>
    <message>
        <source>--bwlimit must be a positive number of KiB/s.</source>
        <translation>--bwlimit 必须是正数（KiB/s）。</translation>
    </message>
    <message>
        <source>--timeout must be a positive number of seconds.</source>
        <translation>--timeout 必须是正数（秒）。</translation>
    </message>
    <message>
        <source>{option} is for a bucket location, and {target} is a host folder.</source>
        <translation>{option} 只用于存储桶位置，而 {target} 是主机上的文件夹。</translation>
    </message>
    <message>
        <source>Leave {option} out, or sync with a bucket: labgpu sync LOCAL s3://BUCKET/PREFIX --account NAME.</source>
        <translation>去掉 {option}，或者与存储桶同步：labgpu sync LOCAL s3://BUCKET/PREFIX --account NAME。</translation>
    </message>
    <message>
        <source>The local folder comes first: {text!r} is a bucket location.</source>
        <translation>本地文件夹要写在前面：{text!r} 是存储桶位置。</translation>
    </message>
    <message>
        <source>Write labgpu sync LOCAL {url} --down to download the bucket into LOCAL.</source>
        <translation>要把存储桶下载到 LOCAL，请写 labgpu sync LOCAL {url} --down。</translation>
    </message>
    <message>
        <source>created the encryption key &apos;{name}&apos; (in your keyring). Save its recovery phrase now with &apos;labgpu keys export {name}&apos; and keep it somewhere safe: without this key nobody, not even LabGPU, can read the encrypted files.</source>
        <translation>已创建加密密钥 &apos;{name}&apos;（在你的密钥环中）。请现在用 &apos;labgpu keys export {name}&apos; 保存其恢复短语并妥善保管：没有这个密钥，任何人（包括 LabGPU）都无法读取加密的文件。</translation>
    </message>
    <message>
        <source>ACTION</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>PATH</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>SIZE</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>REASON</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>dry run: would transfer {files} files ({human_bytes}), delete {deleted}, skip {skipped} unchanged; {conflicts} conflicts</source>
        <translation>试运行：将传输 {files} 个文件（{human_bytes}），删除 {deleted} 个，跳过 {skipped} 个未变化的；{conflicts} 个冲突</translation>
    </message>
    <message>
        <source>{files} files ({human_bytes}) transferred, {skipped} unchanged, {deleted} deleted, {conflicts} conflicts in {seconds:.1f} s</source>
        <translation>已传输 {files} 个文件（{human_bytes}），{skipped} 个未变化，删除 {deleted} 个，{conflicts} 个冲突，用时 {seconds:.1f} 秒</translation>
    </message>
    <message>
        <source>{conflicts} destination files are newer and were kept (e.g. {conflict_paths}); use --force to overwrite</source>
        <translation>{conflicts} 个目标文件较新，已保留（例如 {conflict_paths}）；用 --force 覆盖</translation>
    </message>
    <message>
        <source>{option} cannot be used between a bucket and a host folder.</source>
        <translation>在存储桶和主机文件夹之间同步时不能用 {option}。</translation>
    </message>
    <message>
        <source>Leave it out. The order of the two says the direction: labgpu sync URL NAME:DIR copies the bucket to the host, labgpu sync NAME:DIR URL the other way; files the destination already has (same size, not older) are skipped.</source>
        <translation>去掉这个选项。两个参数的先后顺序就是方向：labgpu sync URL NAME:DIR 把存储桶复制到主机，labgpu sync NAME:DIR URL 则反过来；目标已有的文件（大小相同且不更旧）会跳过。</translation>
    </message>
    <message>
        <source>not transferred: {path} — {why}</source>
        <translation>未传输：{path}（{why}）</translation>
    </message>
    <message>
        <source>… and {n} more (--json lists them)</source>
        <translation>……另有 {n} 项（--json 会全部列出）</translation>
    </message>
    <message>
        <source>labgpu: [Incomplete] {n} item(s) you asked for {verb} (see above) — fix permissions or replace special files/links with regular files, then sync again</source>
        <translation>labgpu：[Incomplete] 你要求的 {n} 项{verb}（见上文）。请修正权限，或把特殊文件/链接换成普通文件，然后重新同步</translation>
    </message>
    <message>
        <source>{purpose} pull failed: {why}</source>
        <translation>{purpose} 拉取失败：{why}</translation>
    </message>
    <message>
        <source>{purpose} pull: {n} new or changed file(s), each checked with SHA-256 on both sides</source>
        <translation>{purpose} 拉取：{n} 个新增或改动的文件，每个都在两端用 SHA-256 校验过</translation>
    </message>
    <message>
        <source>{count} file(s) of {host} did not reach {bucket}.</source>
        <translation>{host} 有 {count} 个文件未到达 {bucket}。</translation>
    </message>
    <message>
        <source>Run the pair again from the Sync page while the instance can still be reached.</source>
        <translation>请趁实例还能连上，在同步页面再运行一次这对同步。</translation>
    </message>
</context>
<context>
    <name>PreviewModel</name>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>New folder</source>
        <translation>新建文件夹</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
</context>
<context>
    <name>SyncPage</name>
    <message>
        <source>Sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>&amp;New pair…</source>
        <translation>新建同步对(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>Forget the pair (files are not touched)</source>
        <translation>删除此同步对（不会动任何文件）</translation>
    </message>
    <message>
        <source>&amp;Preview</source>
        <translation>预览(&amp;P)</translation>
    </message>
    <message>
        <source>List what will change without changing anything (Ctrl+P)</source>
        <translation>列出将要发生的变化，但不做任何修改（Ctrl+P）</translation>
    </message>
    <message>
        <source>&amp;Sync now</source>
        <translation>立即同步(&amp;S)</translation>
    </message>
    <message>
        <source>Run the sync (Ctrl+Return)</source>
        <translation>运行同步（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Stop now; finished files stay, the rest resumes next time (Esc)</source>
        <translation>立即停止；已完成的文件保留，其余的下次继续（Esc）</translation>
    </message>
    <message>
        <source>Local folder</source>
        <translation>本地文件夹</translation>
    </message>
    <message>
        <source>Remote folder</source>
        <translation>远程文件夹</translation>
    </message>
    <message>
        <source>Direction</source>
        <translation>方向</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>Press Preview to see what will change.</source>
        <translation>点击“预览”查看将要发生的变化。</translation>
    </message>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件数</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据量</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Pairs</source>
        <translation>同步对</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <source>Idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>mirror</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>verify</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>Upload ↑</source>
        <translation>上传 ↑</translation>
    </message>
    <message>
        <source>Download ↓</source>
        <translation>下载 ↓</translation>
    </message>
    <message>
        <source>OK</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Incomplete</source>
        <translation>不完整</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>{skipped} unchanged, {deleted} deleted, {conflicts} conflicts</source>
        <translation>{skipped} 个未变化，删除 {deleted} 个，{conflicts} 个冲突</translation>
    </message>
    <message>
        <source>Keep a local folder and a folder on a host, or a bucket, in step: datasets up, checkpoints down. Unchanged files are skipped; newer files at the destination are never overwritten.</source>
        <translation>让本地文件夹与主机上的文件夹或存储桶保持一致：数据集上传，检查点下载。未改动的文件会跳过；目标端较新的文件绝不会被覆盖。</translation>
    </message>
    <message>
        <source>Add a local folder ↔ host folder or bucket pair (Ctrl+N)</source>
        <translation>添加“本地文件夹 ↔ 主机文件夹或存储桶”同步对（Ctrl+N）</translation>
    </message>
    <message>
        <source>Host or bucket</source>
        <translation>主机或存储桶</translation>
    </message>
    <message>
        <source>Size · cost</source>
        <translation>大小 · 费用</translation>
    </message>
    <message>
        <source>1 exclude</source>
        <translation>1 条排除规则</translation>
    </message>
    <message>
        <source>{count} excludes</source>
        <translation>{count} 条排除规则</translation>
    </message>
    <message>
        <source>encrypted ({key})</source>
        <translation>已加密（{key}）</translation>
    </message>
    <message>
        <source>KMS</source>
        <translation>KMS</translation>
    </message>
    <message>
        <source>Remove pair</source>
        <translation>移除同步对</translation>
    </message>
    <message>
        <source>Forget the pair {local} ↔ {remote}? No files are deleted.</source>
        <translation>删除同步对 {local} ↔ {remote}？不会删除任何文件。</translation>
    </message>
    <message>
        <source>Previewing…</source>
        <translation>正在预览…</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Waiting for the VPN {profile} and the connection…</source>
        <translation>正在等待 VPN {profile} 和连接…</translation>
    </message>
    <message>
        <source>Waiting for the connection…</source>
        <translation>正在等待连接…</translation>
    </message>
    <message>
        <source>Listing files…</source>
        <translation>正在列出文件…</translation>
    </message>
    <message>
        <source>Comparing…</source>
        <translation>正在比较…</translation>
    </message>
    <message>
        <source>Transferring</source>
        <translation>正在传输</translation>
    </message>
    <message>
        <source>Verifying (sha256)…</source>
        <translation>正在校验（sha256）…</translation>
    </message>
    <message>
        <source>Deleting…</source>
        <translation>正在删除…</translation>
    </message>
    <message>
        <source>Waiting for the other sync of this pair…</source>
        <translation>正在等待这个文件夹对的另一次同步结束…</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>attempt {attempt} — resumes by itself</source>
        <translation>第 {attempt} 次尝试——会自动继续</translation>
    </message>
    <message>
        <source>{files_done}/{files_total} files · {bytes_done} of {bytes_total} · {rate}/s · ETA {eta}</source>
        <translation>{files_done}/{files_total} 个文件 · {bytes_done} / {bytes_total} · {rate}/s · 剩余 {eta}</translation>
    </message>
    <message>
        <source>Preview ready</source>
        <translation>预览完成</translation>
    </message>
    <message>
        <source>{files} files to transfer ({bytes}), {deleted} to delete, {skipped} unchanged, {conflicts} conflicts.</source>
        <translation>将传输 {files} 个文件（{bytes}），删除 {deleted} 个，{skipped} 个未变化，{conflicts} 个冲突。</translation>
    </message>
    <message>
        <source>Showing the first {shown} of {total} changes.</source>
        <translation>仅显示 {total} 项变化中的前 {shown} 项。</translation>
    </message>
    <message>
        <source>Check the deletions below, then press Sync now again to apply them.</source>
        <translation>请检查下面的删除项，然后再次点击“立即同步”执行。</translation>
    </message>
    <message>
        <source>Nothing would be deleted; press Sync now again to run it.</source>
        <translation>不会删除任何文件；再次点击“立即同步”开始运行。</translation>
    </message>
    <message>
        <source>{files} files ({bytes}) transferred, {skipped} unchanged, {deleted} deleted in {seconds} s.</source>
        <translation>已传输 {files} 个文件（{bytes}），{skipped} 个未变化，删除 {deleted} 个，用时 {seconds} 秒。</translation>
    </message>
    <message>
        <source>{conflicts} destination files are newer and were kept.</source>
        <translation>{conflicts} 个目标文件较新，已保留。</translation>
    </message>
    <message>
        <source>Done, but incomplete</source>
        <translation>完成，但不完整</translation>
    </message>
    <message>
        <source>{count} items were NOT transferred, e.g. {path} ({why}).</source>
        <translation>有 {count} 项没有传输，例如 {path}（{why}）。</translation>
    </message>
    <message>
        <source>fast path (shell listing, tar streams)</source>
        <translation>快速路径（shell 列目录，tar 流）</translation>
    </message>
    <message>
        <source>shell for checksums, SFTP for listing and files</source>
        <translation>shell 计算校验和，SFTP 列目录和传文件</translation>
    </message>
    <message>
        <source>pure SFTP (no usable shell on the server)</source>
        <translation>纯 SFTP（服务器上没有可用的 shell）</translation>
    </message>
    <message>
        <source>Server: {mode} — {note}</source>
        <translation>服务器：{mode} — {note}</translation>
    </message>
</context>
<context>
    <name>SyncPairDialog</name>
    <message>
        <source>Edit sync pair</source>
        <translation>编辑同步对</translation>
    </message>
    <message>
        <source>New sync pair</source>
        <translation>新建同步对</translation>
    </message>
    <message>
        <source>A host from the Hosts page (or labgpu hosts add)</source>
        <translation>“主机”页面中的主机（或用 labgpu hosts add 添加）</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <source>Folder on this computer</source>
        <translation>本机上的文件夹</translation>
    </message>
    <message>
        <source>&amp;Folders</source>
        <translation>文件夹(&amp;F)</translation>
    </message>
    <message>
        <source>O&amp;ptions</source>
        <translation>选项(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Local folder:</source>
        <translation>本地文件夹(&amp;L)：</translation>
    </message>
    <message>
        <source>A folder on a h&amp;ost</source>
        <translation>主机上的文件夹(&amp;O)</translation>
    </message>
    <message>
        <source>A buc&amp;ket (object storage)</source>
        <translation>存储桶（对象存储）(&amp;K)</translation>
    </message>
    <message>
        <source>Destination:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>e.g. ~/data or /mnt/datasets/imagenet</source>
        <translation>例如 ~/data 或 /mnt/datasets/imagenet</translation>
    </message>
    <message>
        <source>&amp;Remote folder:</source>
        <translation>远程文件夹(&amp;R)：</translation>
    </message>
    <message>
        <source>&amp;Upload (local → remote)</source>
        <translation>上传（本地 → 远程）(&amp;U)</translation>
    </message>
    <message>
        <source>Do&amp;wnload (remote → local)</source>
        <translation>下载（远程 → 本地）(&amp;W)</translation>
    </message>
    <message>
        <source>Direction:</source>
        <translation>方向：</translation>
    </message>
    <message>
        <source>One pattern per line, .gitignore syntax, e.g.
*.ckpt
runs/
!runs/best.ckpt</source>
        <translation>每行一个模式，.gitignore 语法，例如
*.ckpt
runs/
!runs/best.ckpt</translation>
    </message>
    <message>
        <source>E&amp;xcludes:</source>
        <translation>排除(&amp;X)：</translation>
    </message>
    <message>
        <source>Always excluded: {names}</source>
        <translation>始终排除：{names}</translation>
    </message>
    <message>
        <source>Honour .gitignore files in the source folder</source>
        <translation>遵循源文件夹中的 .gitignore 文件</translation>
    </message>
    <message>
        <source>Verify with sha256 (slower, reads every file)</source>
        <translation>用 sha256 校验（较慢，会读取每个文件）</translation>
    </message>
    <message>
        <source> KiB/s</source>
        <translation> KiB/s</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>不限速</translation>
    </message>
    <message>
        <source>Choose the local folder</source>
        <translation>选择本地文件夹</translation>
    </message>
    <message>
        <source>Choose a host. Add one on the Hosts page first.</source>
        <translation>请选择主机。可先在“主机”页面添加。</translation>
    </message>
    <message>
        <source>Enter the local folder.</source>
        <translation>请输入本地文件夹。</translation>
    </message>
    <message>
        <source>Mirror: delete what the source no longer has</source>
        <translation>镜像：删除源中已不存在的文件</translation>
    </message>
    <message>
        <source>Delete destination files missing from the source. Sync now shows them in the preview first; press it again to delete them.</source>
        <translation>删除目标端中源里没有的文件。“立即同步”会先在预览中列出它们；再按一次才会删除。</translation>
    </message>
    <message>
        <source>Bandwidth l&amp;imit:</source>
        <translation>带宽限制(&amp;I)：</translation>
    </message>
    <message>
        <source>s3://, cos://, oss:// or obs://BUCKET/FOLDER</source>
        <translation>s3://、cos://、oss:// 或 obs://存储桶/文件夹</translation>
    </message>
    <message>
        <source>e.g. cos://data-1250000000/imagenet (the bucket&apos;s name ends with your APPID on COS)</source>
        <translation>例如 cos://data-1250000000/imagenet（在 COS 上，存储桶名称以你的 APPID 结尾）</translation>
    </message>
    <message>
        <source>Browse bu&amp;ckets…</source>
        <translation>浏览存储桶(&amp;C)…</translation>
    </message>
    <message>
        <source>List the account&apos;s buckets and folders and pick one</source>
        <translation>列出该账号的存储桶和文件夹，从中选择一个</translation>
    </message>
    <message>
        <source>Loca&amp;tion:</source>
        <translation>位置(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Account:</source>
        <translation>账号(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Go to Accounts…</source>
        <translation>前往“云账号”页(&amp;G)…</translation>
    </message>
    <message>
        <source>Close this dialog and open the Accounts page</source>
        <translation>关闭此对话框并打开“云账号”页</translation>
    </message>
    <message>
        <source>None</source>
        <translation>不加密</translation>
    </message>
    <message>
        <source>LabGPU key (client-side AES-256-GCM, names and contents)</source>
        <translation>LabGPU 密钥（客户端 AES-256-GCM，加密文件名和内容）</translation>
    </message>
    <message>
        <source>The cloud&apos;s KMS (server-side, keys kept by the cloud)</source>
        <translation>云端 KMS（服务端加密，密钥由云厂商保管）</translation>
    </message>
    <message>
        <source>E&amp;ncryption:</source>
        <translation>加密(&amp;N)：</translation>
    </message>
    <message>
        <source>Key na&amp;me:</source>
        <translation>密钥名称(&amp;M)：</translation>
    </message>
    <message>
        <source>empty: the service&apos;s default key</source>
        <translation>留空：使用该服务的默认密钥</translation>
    </message>
    <message>
        <source>KMS ke&amp;y ID:</source>
        <translation>KMS 密钥 ID(&amp;Y)：</translation>
    </message>
    <message>
        <source>&amp;Upload (local → bucket)</source>
        <translation>上传（本地 → 存储桶）(&amp;U)</translation>
    </message>
    <message>
        <source>Do&amp;wnload (bucket → local)</source>
        <translation>下载（存储桶 → 本地）(&amp;W)</translation>
    </message>
    <message>
        <source>No {cloud} account yet: {service} needs one. Add it on the Accounts page (its keys go to your system keyring), then open this dialog again.</source>
        <translation>还没有{cloud}账号：{service} 需要一个。请在“云账号”页添加（密钥保存在系统密钥环中），然后重新打开此对话框。</translation>
    </message>
    <message>
        <source>No cloud account with object storage yet (AWS, Tencent Cloud, Alibaba Cloud or Huawei Cloud). Add one on the Accounts page, then open this dialog again.</source>
        <translation>还没有带对象存储的云账号（AWS、腾讯云、阿里云或华为云）。请在“云账号”页添加一个，然后重新打开此对话框。</translation>
    </message>
    <message>
        <source>The key {name} is in your system keyring; it never leaves this computer and is never written to a file. Save its recovery phrase with labgpu keys export {name} and keep it safe: without the key nobody, you included, can read these files.</source>
        <translation>密钥 {name} 保存在你的系统密钥环中；它不会离开这台电脑，也绝不写入文件。请用 labgpu keys export {name} 保存它的恢复短语并妥善保管：没有这个密钥，任何人（包括你自己）都无法读取这些文件。</translation>
    </message>
    <message>
        <source>A new key {name} is made in your system keyring when you press OK; it never leaves this computer and is never written to a file. Save its recovery phrase with labgpu keys export {name} and keep it safe: without the key nobody, you included, can read these files.</source>
        <translation>点击“确定”后，会在你的系统密钥环中新建密钥 {name}；它不会离开这台电脑，也绝不写入文件。请用 labgpu keys export {name} 保存它的恢复短语并妥善保管：没有这个密钥，任何人（包括你自己）都无法读取这些文件。</translation>
    </message>
    <message>
        <source>The cloud encrypts each object with its KMS key when it stores it; anyone this account lets read the bucket reads the files. The KMS key may cost extra.</source>
        <translation>云端在存储每个对象时用其 KMS 密钥加密；凡是该账号允许读取此存储桶的人，都能读到这些文件。KMS 密钥可能另行收费。</translation>
    </message>
    <message>
        <source>Files are stored as they are; the cloud may still encrypt its disks.</source>
        <translation>文件按原样存储；云厂商仍可能对其磁盘加密。</translation>
    </message>
    <message>
        <source>{path} is a file, not a folder. Choose a folder with Browse.</source>
        <translation>{path} 是文件，不是文件夹。请点“浏览”选择一个文件夹。</translation>
    </message>
    <message>
        <source>The folder {folder} does not exist on this computer. Check the path or choose a folder with Browse.</source>
        <translation>这台电脑上没有文件夹 {folder}。请检查路径，或点“浏览”选择一个文件夹。</translation>
    </message>
    <message>
        <source>Enter the remote folder.</source>
        <translation>请输入远程文件夹。</translation>
    </message>
    <message>
        <source>Enter the bucket location, e.g. s3://my-lab-data/imagenet, or use Browse buckets.</source>
        <translation>请输入存储桶位置，例如 s3://my-lab-data/imagenet，或使用“浏览存储桶”。</translation>
    </message>
    <message>
        <source>Choose an account of {cloud} for this bucket.</source>
        <translation>请为这个存储桶选择一个{cloud}账号。</translation>
    </message>
</context>
</TS>
