<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>The Google Cloud Compute SDK is not installed ({module}).</source>
        <translation>未安装 Google Cloud Compute SDK（{module}）。</translation>
    </message>
    <message>
        <source>Install it with: pip install google-cloud-compute</source>
        <translation>用以下命令安装：pip install google-cloud-compute</translation>
    </message>
    <message>
        <source>Google Cloud&apos;s operation {operation} is still running after {seconds} s.</source>
        <translation>谷歌云的操作 {operation} 在 {seconds} 秒后仍在进行。</translation>
    </message>
    <message>
        <source>Reload the instances page in a minute to see where it stands.</source>
        <translation>一分钟后刷新实例页面，查看进展。</translation>
    </message>
    <message>
        <source>{zone} has no {instance_type} left right now ({error_code}).</source>
        <translation>{zone} 目前没有可用的 {instance_type}（{error_code}）。</translation>
    </message>
    <message>
        <source>Try another zone of the region, another GPU type, or again later: capacity changes often. This is not a quota: a quota increase does not help.</source>
        <translation>请换用该地域的其他可用区、其他 GPU 类型，或稍后再试：容量经常变化。这不是配额问题：提高配额也无济于事。</translation>
    </message>
    <message>
        <source>The project&apos;s Compute Engine quota does not allow this ({error_code}): {provider_message}</source>
        <translation>该项目的 Compute Engine 配额不允许此操作（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Ask for a higher GPU or vCPU quota for {region} under IAM &amp; Admin &gt; Quotas in the Google Cloud console (a new project&apos;s GPU quota is 0); another zone of the same region shares the quota.</source>
        <translation>在谷歌云控制台的“IAM 和管理 &gt; 配额”中为 {region} 申请更高的 GPU 或 vCPU 配额（新项目的 GPU 配额为 0）；同一地域的其他可用区共用该配额。</translation>
    </message>
    <message>
        <source>Google Cloud is limiting this project&apos;s requests right now ({error_code}).</source>
        <translation>谷歌云目前正在限制该项目的请求（{error_code}）。</translation>
    </message>
    <message>
        <source>Wait a minute and retry.</source>
        <translation>请等一分钟后重试。</translation>
    </message>
    <message>
        <source>Google Cloud has no such resource ({error_code}): {provider_message}</source>
        <translation>谷歌云没有该资源（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Reload the instances page: it may have been deleted. If the project is named, check the account&apos;s project and the key&apos;s project_id.</source>
        <translation>请刷新实例页面：它可能已被删除。如果提到了项目，请检查账户的项目和密钥中的 project_id。</translation>
    </message>
    <message>
        <source>This service account may not do that in project {project} ({error_code}): {provider_message}</source>
        <translation>该服务账号无权在项目 {project} 中执行此操作（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>In IAM &amp; Admin &gt; IAM, give the service account the Compute Instance Admin (v1) and Compute Security Admin roles, and enable the Compute Engine API.</source>
        <translation>在“IAM 和管理 &gt; IAM”中为该服务账号授予 Compute Instance Admin (v1) 和 Compute Security Admin 角色，并启用 Compute Engine API。</translation>
    </message>
    <message>
        <source>Google Cloud refused the service-account key ({error_code}): {provider_message}</source>
        <translation>谷歌云拒绝了该服务账号密钥（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>The key may be deleted or disabled, or this computer&apos;s clock is off: check the clock, or create a new JSON key under IAM &amp; Admin &gt; Service accounts &gt; Keys and paste it into the account again.</source>
        <translation>该密钥可能已被删除或停用，或者本机时钟不准：请检查时钟，或在“IAM 和管理 &gt; 服务账号 &gt; 密钥”中创建新的 JSON 密钥，并重新粘贴到账户中。</translation>
    </message>
    <message>
        <source>Google Cloud refused the request ({error_code}): {provider_message}</source>
        <translation>谷歌云拒绝了该请求（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Check the instance type, zone and image: {instance_type} in {zone}.</source>
        <translation>请检查实例类型、可用区和镜像：{zone} 中的 {instance_type}。</translation>
    </message>
    <message>
        <source>{variable} names {path}, which does not exist.</source>
        <translation>{variable} 指向的 {path} 不存在。</translation>
    </message>
    <message>
        <source>Point it at the JSON key you downloaded, or unset it.</source>
        <translation>请让它指向你下载的 JSON 密钥，或取消该变量。</translation>
    </message>
    <message>
        <source>Check the file&apos;s permissions and retry.</source>
        <translation>请检查文件权限后重试。</translation>
    </message>
    <message>
        <source>Download a JSON key of a service account (IAM &amp; Admin &gt; Service accounts &gt; Keys) and point {variable} at it.</source>
        <translation>请下载服务账号的 JSON 密钥（“IAM 和管理 &gt; 服务账号 &gt; 密钥”），并让 {variable} 指向它。</translation>
    </message>
    <message>
        <source>Paste the whole JSON key of a service account (IAM &amp; Admin &gt; Service accounts &gt; Keys &gt; Add key &gt; JSON): its &quot;type&quot; is &quot;service_account&quot;.</source>
        <translation>请粘贴服务账号的完整 JSON 密钥（“IAM 和管理 &gt; 服务账号 &gt; 密钥 &gt; 添加密钥 &gt; JSON”）：其 &quot;type&quot; 为 &quot;service_account&quot;。</translation>
    </message>
    <message>
        <source>The service-account key is not JSON text.</source>
        <translation>该服务账号密钥不是 JSON 文本。</translation>
    </message>
    <message>
        <source>This Google credential is of type &quot;{kind}&quot;, not a service-account key: LabGPU keeps only service-account keys (a user login or an external account refreshes itself through gcloud, which LabGPU does not run).</source>
        <translation>这个谷歌凭据的类型是 &quot;{kind}&quot;，不是服务账号密钥：LabGPU 只保存服务账号密钥（用户登录或外部账号需通过 gcloud 刷新，而 LabGPU 不运行 gcloud）。</translation>
    </message>
    <message>
        <source>The service-account key has no {fields}.</source>
        <translation>该服务账号密钥缺少 {fields}。</translation>
    </message>
    <message>
        <source>No Deep Learning VM or Ubuntu image was found for {instance_type}.</source>
        <translation>没有找到适用于 {instance_type} 的 Deep Learning VM 或 Ubuntu 镜像。</translation>
    </message>
    <message>
        <source>Pass an image with --image (projects/PROJECT/global/images/NAME).</source>
        <translation>请用 --image 指定镜像（projects/PROJECT/global/images/NAME）。</translation>
    </message>
    <message>
        <source>The SSH key goes into the instance&apos;s ssh-keys metadata (user {user}).</source>
        <translation>SSH 密钥写入实例的 ssh-keys 元数据（用户 {user}）。</translation>
    </message>
    <message>
        <source>Firewall rule: SSH from {cidr} only.</source>
        <translation>防火墙规则：只允许来自 {cidr} 的 SSH。</translation>
    </message>
    <message>
        <source>Image {image}.</source>
        <translation>镜像 {image}。</translation>
    </message>
    <message>
        <source>GPU image {name} (Deep Learning VM, NVIDIA driver installed at first boot).</source>
        <translation>GPU 镜像 {name}（Deep Learning VM，首次启动时安装 NVIDIA 驱动）。</translation>
    </message>
    <message>
        <source>No Deep Learning VM image found: using {name}; install the NVIDIA driver and CUDA yourself.</source>
        <translation>没有找到 Deep Learning VM 镜像：改用 {name}；请自行安装 NVIDIA 驱动和 CUDA。</translation>
    </message>
    <message>
        <source>Requesting Spot {type} in {zone} (Google Cloud has no price cap: the current Spot price applies)…</source>
        <translation>正在 {zone} 请求 Spot {type}（谷歌云没有出价上限：按当前 Spot 价格计费）…</translation>
    </message>
    <message>
        <source>Requesting on-demand {type} in {zone}…</source>
        <translation>正在 {zone} 请求按需 {type}…</translation>
    </message>
    <message>
        <source>Live Google Cloud prices need an API key for the Cloud Billing Catalog API; the offers table keeps the bundled prices.</source>
        <translation>读取谷歌云实时价格需要 Cloud Billing Catalog API 的 API 密钥；报价表继续使用内置价格。</translation>
    </message>
    <message>
        <source>Create an API key (APIs &amp; Services &gt; Credentials), enable the Cloud Billing API, and paste the key into the account&apos;s API key field.</source>
        <translation>请创建 API 密钥（“API 和服务 &gt; 凭据”），启用 Cloud Billing API，并把密钥粘贴到账户的 API 密钥字段。</translation>
    </message>
    <message>
        <source>Stopped: its vCPUs, memory and GPUs no longer bill; its persistent disks and any static IP address still bill. Terminate it to end all charges.</source>
        <translation>已停止：vCPU、内存和 GPU 不再计费；永久性磁盘和静态 IP 地址仍然计费。释放（终止）实例才能停止所有费用。</translation>
    </message>
    <message>
        <source>The key&apos;s client_email is not the account&apos;s service account.</source>
        <translation>密钥中的 client_email 与账户的服务账号不一致。</translation>
    </message>
    <message>
        <source>The key names no project_id, and the account names no project.</source>
        <translation>密钥中没有 project_id，账户也没有指定项目。</translation>
    </message>
    <message>
        <source>{region} is not a Compute Engine region of this project.</source>
        <translation>{region} 不是该项目的 Compute Engine 地域。</translation>
    </message>
    <message>
        <source>Google Cloud service account {key}, project {project} ({n} regions)</source>
        <translation>谷歌云服务账号 {key}，项目 {project}（{n} 个地域）</translation>
    </message>
    <message>
        <source>Google Cloud has no instance {instance_id} in this project.</source>
        <translation>该项目中没有谷歌云实例 {instance_id}。</translation>
    </message>
    <message>
        <source>Reload the instances page: it may have been deleted.</source>
        <translation>请刷新实例页面：它可能已被删除。</translation>
    </message>
    <message>
        <source>Google Cloud has no price cap for Spot VMs: it bills the current Spot price, and LabGPU&apos;s spot maximum is not sent. When Google Cloud needs the capacity back it stops the VM (instanceTerminationAction STOP): a stopped VM bills its disks only; start it again later.</source>
        <translation>谷歌云的 Spot 虚拟机没有出价上限：按当前 Spot 价格计费，LabGPU 的竞价上限不会发送。谷歌云需要收回容量时会停止该虚拟机（instanceTerminationAction STOP）：停止的虚拟机只对磁盘计费；之后可以再次启动。</translation>
    </message>
    <message>
        <source>Service account e-mail (client_email)</source>
        <translation>服务账号邮箱（client_email）</translation>
    </message>
    <message>
        <source>Service-account key (JSON)</source>
        <translation>服务账号密钥（JSON）</translation>
    </message>
    <message>
        <source>API key for live prices (optional)</source>
        <translation>实时价格的 API 密钥（可选）</translation>
    </message>
    <message>
        <source>Cloud Billing Catalog API key; empty: bundled prices</source>
        <translation>Cloud Billing Catalog API 密钥；留空：使用内置价格</translation>
    </message>
    <message>
        <source>Project ID</source>
        <translation>项目 ID</translation>
    </message>
    <message>
        <source>empty: the key&apos;s project_id</source>
        <translation>留空：使用密钥中的 project_id</translation>
    </message>
    <message>
        <source>optional: Compute API URL, e.g. http://127.0.0.1:9000</source>
        <translation>可选：Compute API 地址，例如 http://127.0.0.1:9000</translation>
    </message>
    <message>
        <source>A stopped Compute Engine VM bills no vCPU, memory or GPU; its persistent disks and any static IP address still bill.</source>
        <translation>停止的 Compute Engine 虚拟机不再对 vCPU、内存和 GPU 计费；永久性磁盘和静态 IP 地址仍然计费。</translation>
    </message>
    <message>
        <source>Google Cloud service-account key from GOOGLE_APPLICATION_CREDENTIALS</source>
        <translation>来自 GOOGLE_APPLICATION_CREDENTIALS 的谷歌云服务账号密钥</translation>
    </message>
    <message>
        <source>Service-account key file {name}</source>
        <translation>服务账号密钥文件 {name}</translation>
    </message>
</context>
</TS>
