<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>Use https://api.paperspace.com/v1 or a URL such as http://127.0.0.1:9000/v1.</source>
        <translation>请使用 https://api.paperspace.com/v1，或 http://127.0.0.1:9000/v1 这样的 URL。</translation>
    </message>
    <message>
        <source>Paperspace has no {instance_type} machine free in {zone} right now.</source>
        <translation>Paperspace 在 {zone} 目前没有空闲的 {instance_type} 机器。</translation>
    </message>
    <message>
        <source>Try another region (leave --zone out and LabGPU tries them in turn), another machine type, or again later.</source>
        <translation>换一个区域（不加 --zone，LabGPU 会依次尝试各区域）、换一种机型，或稍后再试。</translation>
    </message>
    <message>
        <source>Paperspace did not accept the API key ({provider_message}).</source>
        <translation>Paperspace 不接受这个 API 密钥（{provider_message}）。</translation>
    </message>
    <message>
        <source>Create a new API key in the Paperspace console (Team settings &gt; API Keys) and edit the account with it.</source>
        <translation>在 Paperspace 控制台（团队设置 &gt; API Keys）新建一个 API 密钥，再用它编辑此账户。</translation>
    </message>
    <message>
        <source>Paperspace refused this with the account&apos;s API key ({provider_message}).</source>
        <translation>Paperspace 拒绝了此账户 API 密钥的这次请求（{provider_message}）。</translation>
    </message>
    <message>
        <source>Use an API key of a team admin (only admins create machines), or check that the team&apos;s billing is in good standing.</source>
        <translation>请使用团队管理员的 API 密钥（只有管理员能创建机器），或检查团队的账单状态是否正常。</translation>
    </message>
    <message>
        <source>Paperspace does not know {resource} ({provider_message}).</source>
        <translation>Paperspace 找不到 {resource}（{provider_message}）。</translation>
    </message>
    <message>
        <source>Run &apos;labgpu ls&apos; to refresh the list: it may have been deleted in the console.</source>
        <translation>运行 &apos;labgpu ls&apos; 刷新列表：它可能已在控制台中被删除。</translation>
    </message>
    <message>
        <source>Paperspace refused the request as invalid: {provider_message}</source>
        <translation>Paperspace 认为请求无效而拒绝：{provider_message}</translation>
    </message>
    <message>
        <source>Check the machine type, region and disk size (Paperspace sells 50 GB and larger disks in fixed sizes), then retry.</source>
        <translation>检查机型、区域和磁盘大小（Paperspace 只提供 50 GB 起的若干固定磁盘规格），然后重试。</translation>
    </message>
    <message>
        <source>Paperspace could not read LabGPU&apos;s request ({provider_message}).</source>
        <translation>Paperspace 无法解析 LabGPU 的请求（{provider_message}）。</translation>
    </message>
    <message>
        <source>Update LabGPU; if it persists, report it with the request id {rid}.</source>
        <translation>请更新 LabGPU；若问题仍在，请附上请求 ID {rid} 反馈。</translation>
    </message>
    <message>
        <source>Paperspace cannot do this to the machine in its current state ({provider_message}).</source>
        <translation>机器当前的状态下 Paperspace 无法执行此操作（{provider_message}）。</translation>
    </message>
    <message>
        <source>Wait until the machine has finished starting or stopping, then retry.</source>
        <translation>等机器启动或停止完成后再试。</translation>
    </message>
    <message>
        <source>Paperspace will not create this machine for the team yet ({provider_message}).</source>
        <translation>Paperspace 暂时不为该团队创建这台机器（{provider_message}）。</translation>
    </message>
    <message>
        <source>Some GPU types need approval: request access to the machine type in the Paperspace console, or check the team&apos;s machine limit and billing.</source>
        <translation>部分 GPU 机型需要审批：请在 Paperspace 控制台申请该机型的使用权限，或检查团队的机器数量上限和账单。</translation>
    </message>
    <message>
        <source>Paperspace is limiting LabGPU&apos;s requests.</source>
        <translation>Paperspace 正在限制 LabGPU 的请求频率。</translation>
    </message>
    <message>
        <source>Wait a minute and retry.</source>
        <translation>请等一分钟后重试。</translation>
    </message>
    <message>
        <source>Paperspace had an internal error ({provider_message}).</source>
        <translation>Paperspace 发生内部错误（{provider_message}）。</translation>
    </message>
    <message>
        <source>Retry in a few minutes; &apos;labgpu ls&apos; shows whether a launch went through.</source>
        <translation>几分钟后重试；&apos;labgpu ls&apos; 可以看到启动是否已经成功。</translation>
    </message>
    <message>
        <source>Paperspace did not finish the request in time.</source>
        <translation>Paperspace 未能及时完成请求。</translation>
    </message>
    <message>
        <source>Retry; &apos;labgpu ls&apos; shows whether a launch went through.</source>
        <translation>请重试；&apos;labgpu ls&apos; 可以看到启动是否已经成功。</translation>
    </message>
    <message>
        <source>The request to Paperspace was cut off before it finished.</source>
        <translation>发往 Paperspace 的请求在完成前被中断。</translation>
    </message>
    <message>
        <source>Paperspace does not offer this call at the account&apos;s endpoint ({provider_message}).</source>
        <translation>此账户的端点上 Paperspace 不提供这个调用（{provider_message}）。</translation>
    </message>
    <message>
        <source>Check the account&apos;s endpoint: it should end in /v1 (https://api.paperspace.com/v1).</source>
        <translation>检查账户的端点：它应以 /v1 结尾（https://api.paperspace.com/v1）。</translation>
    </message>
    <message>
        <source>Paperspace refused the request as too large ({provider_message}).</source>
        <translation>Paperspace 认为请求过大而拒绝（{provider_message}）。</translation>
    </message>
    <message>
        <source>Use a shorter SSH public key or machine name, then retry.</source>
        <translation>换用更短的 SSH 公钥或机器名称后重试。</translation>
    </message>
    <message>
        <source>Fix the file (run &apos;pspace login&apos; again) and retry.</source>
        <translation>修复该文件（重新运行 &apos;pspace login&apos;）后重试。</translation>
    </message>
    <message>
        <source>Stopped: the machine&apos;s hourly rate no longer bills, but its disk still bills every month until you terminate it, and so does its static public IP (it keeps its address).</source>
        <translation>已停止：机器不再按小时计费，但在你销毁它之前，磁盘仍按月计费，静态公网 IP 也仍计费（地址保持不变）。</translation>
    </message>
    <message>
        <source>Stopped: the machine&apos;s hourly rate no longer bills, but its disk still bills every month until you terminate it. Its dynamic public IP was released: it gets a new address when it starts.</source>
        <translation>已停止：机器不再按小时计费，但在你销毁它之前，磁盘仍按月计费。它的动态公网 IP 已释放：再次启动时会获得新地址。</translation>
    </message>
    <message>
        <source>Paperspace&apos;s API publishes no machine prices (its reference lists only machine availability), so the offers table keeps the bundled catalog&apos;s Paperspace prices, with their dates.</source>
        <translation>Paperspace 的 API 不公布机器价格（其参考文档只有机器可用性），因此报价表沿用内置目录中的 Paperspace 价格，并标明其日期。</translation>
    </message>
    <message>
        <source>Compare with paperspace.com/pricing before a long run; &apos;labgpu offers --provider paperspace&apos; shows the catalog&apos;s prices and their age.</source>
        <translation>长时间运行前请对照 paperspace.com/pricing；&apos;labgpu offers --provider paperspace&apos; 会显示目录价格及其时效。</translation>
    </message>
    <message>
        <source>Paperspace team {team} ({region})</source>
        <translation>Paperspace 团队 {team}（{region}）</translation>
    </message>
    <message>
        <source>No Paperspace OS template takes the machine type {instance_type}.</source>
        <translation>没有 Paperspace 系统模板支持机型 {instance_type}。</translation>
    </message>
    <message>
        <source>Check the machine type&apos;s name (e.g. A100-80G), or pass a template id with --image.</source>
        <translation>检查机型名称（例如 A100-80G），或用 --image 指定模板 ID。</translation>
    </message>
    <message>
        <source>No usable SSH public key was given for the new machine.</source>
        <translation>没有为新机器提供可用的 SSH 公钥。</translation>
    </message>
    <message>
        <source>Create a key or choose an existing ed25519 or RSA key in the launch dialog.</source>
        <translation>在启动对话框中新建密钥，或选择已有的 ed25519 或 RSA 密钥。</translation>
    </message>
    <message>
        <source>Adding the SSH public key with a run-once startup script (the Paperspace API has no SSH key call)…</source>
        <translation>正在通过只运行一次的启动脚本添加 SSH 公钥（Paperspace API 没有 SSH 密钥接口）…</translation>
    </message>
    <message>
        <source>Paperspace has no firewall LabGPU can set: port 22 is reachable from anywhere; only the key logs in as {user}.</source>
        <translation>Paperspace 没有 LabGPU 可设置的防火墙：22 端口对任何地址开放；只有该密钥能以 {user} 登录。</translation>
    </message>
    <message>
        <source>Image {image}.</source>
        <translation>镜像 {image}。</translation>
    </message>
    <message>
        <source>GPU image {name} (template {tid}).</source>
        <translation>GPU 镜像 {name}（模板 {tid}）。</translation>
    </message>
    <message>
        <source>No ML-in-a-Box template takes {type}: using {name} (template {tid}); install the NVIDIA driver and CUDA yourself.</source>
        <translation>没有支持 {type} 的 ML-in-a-Box 模板：改用 {name}（模板 {tid}）；请自行安装 NVIDIA 驱动和 CUDA。</translation>
    </message>
    <message>
        <source>Requesting {type} in {zone}…</source>
        <translation>正在 {zone} 申请 {type}…</translation>
    </message>
    <message>
        <source>Paperspace accepted the launch but returned no machine id.</source>
        <translation>Paperspace 接受了启动请求，但没有返回机器 ID。</translation>
    </message>
    <message>
        <source>Open the instances page: LabGPU finds the machine by its name.</source>
        <translation>打开实例页面：LabGPU 会按名称找到这台机器。</translation>
    </message>
    <message>
        <source>A stopped Paperspace machine no longer bills its hourly rate, but its disk (storage) still bills every month until the machine is deleted, and so does a static public IP.</source>
        <translation>停止后的 Paperspace 机器不再按小时计费，但在机器被删除之前，磁盘（存储）仍按月计费，静态公网 IP 也一样。</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API 密钥</translation>
    </message>
    <message>
        <source>Public IP type</source>
        <translation>公网 IP 类型</translation>
    </message>
    <message>
        <source>dynamic (default: a new address on every start) or static</source>
        <translation>dynamic（默认：每次启动换新地址）或 static</translation>
    </message>
    <message>
        <source>optional: API URL, e.g. http://127.0.0.1:9000/v1</source>
        <translation>可选：API URL，例如 http://127.0.0.1:9000/v1</translation>
    </message>
    <message>
        <source>its API publishes no machine prices (only availability)</source>
        <translation>其 API 不公布机器价格（只有可用性）</translation>
    </message>
    <message>
        <source>Paperspace from ~/.paperspace (pspace login) and PAPERSPACE_API_KEY</source>
        <translation>Paperspace：来自 ~/.paperspace（pspace login）和 PAPERSPACE_API_KEY</translation>
    </message>
    <message>
        <source>pspace team {name}</source>
        <translation>pspace 团队 {name}</translation>
    </message>
</context>
</TS>
