<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>Leave the endpoint empty to use https://cloud.lambda.ai, or give an https URL (plain http only to a loopback address such as http://127.0.0.1:8080).</source>
        <translation>端点留空即使用 https://cloud.lambda.ai，或填写 https 地址（明文 http 仅限回环地址，如 http://127.0.0.1:8080）。</translation>
    </message>
    <message>
        <source>Lambda answered HTTP {status} without the API&apos;s error envelope.</source>
        <translation>Lambda 返回了 HTTP {status}，但没有 API 规定的错误格式。</translation>
    </message>
    <message>
        <source>Check the account&apos;s endpoint (empty = https://cloud.lambda.ai) and retry in a minute.</source>
        <translation>请检查账户的端点（留空 = https://cloud.lambda.ai），一分钟后重试。</translation>
    </message>
    <message>
        <source>Lambda refused the API key ({error_code}): it is invalid, expired or deleted.</source>
        <translation>Lambda 拒绝了该 API 密钥（{error_code}）：密钥无效、已过期或已被删除。</translation>
    </message>
    <message>
        <source>Create a new key on Lambda&apos;s API keys page (cloud.lambda.ai/api-keys), then edit the account and paste it.</source>
        <translation>请在 Lambda 的 API 密钥页面（cloud.lambda.ai/api-keys）新建一个密钥，然后编辑账户并粘贴进去。</translation>
    </message>
    <message>
        <source>Lambda says this account is inactive ({error_code}).</source>
        <translation>Lambda 表示该账户未激活（{error_code}）。</translation>
    </message>
    <message>
        <source>Verify the account&apos;s email address and add a valid payment method in the Lambda Cloud dashboard; contact Lambda Support if it stays inactive.</source>
        <translation>请在 Lambda Cloud 控制台验证账户邮箱并添加有效的付款方式；若仍未激活，请联系 Lambda 支持。</translation>
    </message>
    <message>
        <source>Lambda refused the launch: the account&apos;s billing address is invalid ({error_code}).</source>
        <translation>Lambda 拒绝了创建：账户的账单地址无效（{error_code}）。</translation>
    </message>
    <message>
        <source>Correct the billing address in the Lambda Cloud dashboard (Settings &gt; Billing), then launch again.</source>
        <translation>请在 Lambda Cloud 控制台（Settings &gt; Billing）改正账单地址，然后重新创建。</translation>
    </message>
    <message>
        <source>Lambda refused the request&apos;s data ({error_code}): {provider_message}</source>
        <translation>Lambda 拒绝了请求中的数据（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Check the instance type and region names (labgpu prices refresh --account {account} lists the types); if they are right, report this to LabGPU.</source>
        <translation>请检查实例规格和地域名称（labgpu prices refresh --account {account} 会列出规格）；如果都没错，请向 LabGPU 报告此问题。</translation>
    </message>
    <message>
        <source>Lambda does not know what the request names ({error_code}): {provider_message}</source>
        <translation>Lambda 找不到请求中指定的对象（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>An instance may already be terminated (run &apos;labgpu ls&apos;); for a launch, check the instance type and the account&apos;s file system name.</source>
        <translation>实例可能已被终止（运行 &apos;labgpu ls&apos; 查看）；如果是创建实例，请检查实例规格和账户的文件系统名称。</translation>
    </message>
    <message>
        <source>Lambda refused the launch: the account&apos;s instance quota is used up ({error_code}).</source>
        <translation>Lambda 拒绝了创建：账户的实例配额已用完（{error_code}）。</translation>
    </message>
    <message>
        <source>Terminate an instance you no longer need, or ask Lambda Support to raise the quota (new accounts start low; it rises as invoices are paid).</source>
        <translation>请终止不再需要的实例，或请 Lambda 支持提高配额（新账户配额较低，按时付清账单后会逐步提高）。</translation>
    </message>
    <message>
        <source>Lambda has no {instance_type} free in {zone} right now ({error_code}).</source>
        <translation>Lambda 在 {zone} 目前没有空闲的 {instance_type}（{error_code}）。</translation>
    </message>
    <message>
        <source>Launch in another region (leave the region to LabGPU to try each region with capacity), or wait: capacity comes and goes within hours.</source>
        <translation>请换一个地域创建（不指定地域时，LabGPU 会依次尝试每个有余量的地域），或稍等：余量在几小时内就会变化。</translation>
    </message>
    <message>
        <source>The file system {file_system} is in {fs_region}, and an instance can only attach a file system of its own region ({error_code}).</source>
        <translation>文件系统 {file_system} 位于 {fs_region}，而实例只能挂载同一地域的文件系统（{error_code}）。</translation>
    </message>
    <message>
        <source>Launch in {fs_region}, or edit the account and clear its file system.</source>
        <translation>请在 {fs_region} 创建，或编辑账户并清空文件系统设置。</translation>
    </message>
    <message>
        <source>Lambda already has something of that name ({error_code}): {provider_message}</source>
        <translation>Lambda 中已存在同名对象（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Retry: LabGPU reuses its SSH key by name; if it fails again, delete the key named {key_name} in the Lambda Cloud dashboard.</source>
        <translation>请重试：LabGPU 按名称复用它的 SSH 密钥；若仍失败，请在 Lambda Cloud 控制台删除名为 {key_name} 的密钥。</translation>
    </message>
    <message>
        <source>Lambda had an internal error ({error_code}).</source>
        <translation>Lambda 发生了内部错误（{error_code}）。</translation>
    </message>
    <message>
        <source>Try again in a few minutes; contact Lambda Support if it persists.</source>
        <translation>请几分钟后重试；若问题持续，请联系 Lambda 支持。</translation>
    </message>
    <message>
        <source>A service Lambda depends on is unavailable ({error_code}): {provider_message}</source>
        <translation>Lambda 所依赖的上游服务暂不可用（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Try again shortly; &apos;labgpu ls&apos; shows whether a launch went through.</source>
        <translation>请稍后重试；&apos;labgpu ls&apos; 可查看创建是否已经成功。</translation>
    </message>
    <message>
        <source>Lambda is limiting this account&apos;s requests right now (HTTP 429).</source>
        <translation>Lambda 正在限制该账户的请求频率（HTTP 429）。</translation>
    </message>
    <message>
        <source>Wait a minute and retry: Lambda takes one request a second, and one launch every 12 seconds.</source>
        <translation>请等一分钟再试：Lambda 每秒只接受一个请求，每 12 秒只接受一次创建。</translation>
    </message>
    <message>
        <source>Lambda has no file system named {file_system} in this account.</source>
        <translation>该 Lambda 账户中没有名为 {file_system} 的文件系统。</translation>
    </message>
    <message>
        <source>Edit the account: give the name of a file system the Lambda Cloud dashboard lists (Storage), or leave it empty.</source>
        <translation>请编辑账户：填写 Lambda Cloud 控制台（Storage）中列出的文件系统名称，或留空。</translation>
    </message>
    <message>
        <source>{region} is not a Lambda region.</source>
        <translation>{region} 不是 Lambda 的地域。</translation>
    </message>
    <message>
        <source>Lambda API key accepted ({n} regions, {types} instance types)</source>
        <translation>Lambda API 密钥有效（{n} 个地域，{types} 种实例规格）</translation>
    </message>
    <message>
        <source>Lambda instances cannot be started again: {reason_text}.</source>
        <translation>Lambda 实例无法再次启动：{reason_text}。</translation>
    </message>
    <message>
        <source>Launch a new instance (a persistent file system keeps data between instances).</source>
        <translation>请创建新实例（持久文件系统可在实例之间保留数据）。</translation>
    </message>
    <message>
        <source>{instance_id} cannot be stopped: {reason_text}.</source>
        <translation>{instance_id} 无法停止：{reason_text}。</translation>
    </message>
    <message>
        <source>Only terminating ends its bill, and that deletes its disk (a persistent file system is kept): pull what you need first, then terminate it (labgpu terminate {instance_id}, or Terminate on the instances page).</source>
        <translation>只有终止才能结束计费，而终止会删除它的磁盘（持久文件系统会保留）：请先拉取需要的数据，再终止它（labgpu terminate {instance_id}，或在实例页面点“终止”）。</translation>
    </message>
    <message>
        <source>Adding the SSH public key to Lambda (once, reused by name)…</source>
        <translation>正在把 SSH 公钥添加到 Lambda（只添加一次，之后按名称复用）…</translation>
    </message>
    <message>
        <source>Lambda&apos;s firewall rules of the account decide who reaches SSH (port 22); LabGPU does not change them.</source>
        <translation>谁能连接 SSH（22 端口）由该 Lambda 账户的防火墙规则决定；LabGPU 不会修改这些规则。</translation>
    </message>
    <message>
        <source>Image {image}.</source>
        <translation>镜像 {image}。</translation>
    </message>
    <message>
        <source>Lambda Stack image (Ubuntu with the NVIDIA driver, CUDA and PyTorch).</source>
        <translation>Lambda Stack 镜像（Ubuntu，已装 NVIDIA 驱动、CUDA 和 PyTorch）。</translation>
    </message>
    <message>
        <source>Attaching the file system {name} ({region}).</source>
        <translation>挂载文件系统 {name}（{region}）。</translation>
    </message>
    <message>
        <source>Requesting {type} in {region}…</source>
        <translation>正在 {region} 申请 {type}…</translation>
    </message>
    <message>
        <source>Lambda accepted the launch but returned no instance id.</source>
        <translation>Lambda 接受了创建请求，但没有返回实例 ID。</translation>
    </message>
    <message>
        <source>Open the instances page: LabGPU lists every instance of the account.</source>
        <translation>请打开实例页面：LabGPU 会列出该账户的所有实例。</translation>
    </message>
    <message>
        <source>Lambda has no stop: an instance bills until it is terminated, and terminating deletes its disk</source>
        <translation>Lambda 没有“停止”：实例在终止前一直计费，而终止会删除它的磁盘</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Persistent file system</source>
        <translation>持久文件系统</translation>
    </message>
    <message>
        <source>optional: its name; launches then go to its region</source>
        <translation>可选：填写其名称；之后创建的实例都会放在它所在的地域</translation>
    </message>
    <message>
        <source>optional: https URL, e.g. https://cloud.lambda.ai</source>
        <translation>可选：https 地址，例如 https://cloud.lambda.ai</translation>
    </message>
    <message>
        <source>Lambda sells no spot instances.</source>
        <translation>Lambda 不提供竞价（spot）实例。</translation>
    </message>
    <message>
        <source>Lambda from the LAMBDA_API_KEY variable</source>
        <translation>从 LAMBDA_API_KEY 环境变量导入 Lambda</translation>
    </message>
</context>
</TS>
