<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>The Huawei Cloud SDK is not installed ({module}).</source>
        <translation>未安装华为云 SDK（{module}）。</translation>
    </message>
    <message>
        <source>Install it with: pip install huaweicloudsdkecs huaweicloudsdkvpc huaweicloudsdkims huaweicloudsdkkps huaweicloudsdkcore</source>
        <translation>请用以下命令安装：pip install huaweicloudsdkecs huaweicloudsdkvpc huaweicloudsdkims huaweicloudsdkkps huaweicloudsdkcore</translation>
    </message>
    <message>
        <source>Use a host such as ecs.cn-north-4.myhuaweicloud.com or a URL such as http://127.0.0.1:9000.</source>
        <translation>请填写主机名（如 ecs.cn-north-4.myhuaweicloud.com）或 URL（如 http://127.0.0.1:9000）。</translation>
    </message>
    <message>
        <source>Huawei Cloud refused the signature ({error_code}): the secret access key (SK) does not match the access key (AK), the AK is unknown, or this computer&apos;s clock is more than 15 minutes off (after five failures in a row Huawei Cloud locks the AK for five minutes).</source>
        <translation>华为云拒绝了签名（{error_code}）：秘密访问密钥（SK）与访问密钥（AK）不匹配、AK 不存在，或本机时钟偏差超过 15 分钟（连续失败五次后，华为云会锁定该 AK 五分钟）。</translation>
    </message>
    <message>
        <source>Edit the account and paste the AK and SK again (My Credentials &gt; Access Keys; the SK is only in the credentials file downloaded when the key was created), and check that the system clock is right.</source>
        <translation>请编辑账号，重新粘贴 AK 和 SK（我的凭证 &gt; 访问密钥；SK 只在创建密钥时下载的凭证文件里），并确认系统时钟正确。</translation>
    </message>
    <message>
        <source>This Huawei Cloud access key may not call {action} ({error_code}).</source>
        <translation>此华为云访问密钥无权调用 {action}（{error_code}）。</translation>
    </message>
    <message>
        <source>Ask the account administrator to give this IAM user the ECS ReadOnlyAccess (or ECS FullAccess) policy in the project of {region}, or use an access key that has it.</source>
        <translation>请让账号管理员在 {region} 的项目中为此 IAM 用户授予 ECS ReadOnlyAccess（或 ECS FullAccess）策略，或改用具有该权限的访问密钥。</translation>
    </message>
    <message>
        <source>The endpoint {endpoint} has no such Huawei Cloud API ({error_code}).</source>
        <translation>终端节点 {endpoint} 上没有这个华为云 API（{error_code}）。</translation>
    </message>
    <message>
        <source>Check the account&apos;s region and endpoint: leave the endpoint empty to use ecs.&lt;region&gt;.myhuaweicloud.com.</source>
        <translation>请检查账号的区域和终端节点：终端节点留空即使用 ecs.&lt;region&gt;.myhuaweicloud.com。</translation>
    </message>
    <message>
        <source>Huawei Cloud is limiting this account&apos;s requests right now ({error_code}).</source>
        <translation>华为云正在限制此账号的请求频率（{error_code}）。</translation>
    </message>
    <message>
        <source>Wait a minute and retry.</source>
        <translation>请等一分钟后重试。</translation>
    </message>
    <message>
        <source>LabGPU could not find this account&apos;s project in Huawei Cloud region {region}: {provider_message}</source>
        <translation>LabGPU 找不到此账号在华为云区域 {region} 的项目：{provider_message}</translation>
    </message>
    <message>
        <source>Check the account&apos;s region: My Credentials &gt; API Credentials in the Huawei Cloud console lists the projects of each region (one per region is needed).</source>
        <translation>请检查账号的区域：华为云控制台的“我的凭证 &gt; API 凭证”列出了每个区域的项目（每个区域需要一个项目）。</translation>
    </message>
    <message>
        <source>Huawei Cloud ECS refused the request {action} ({error_code}): {provider_message}</source>
        <translation>华为云 ECS 拒绝了请求 {action}（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Check the instance type, image and zone in the launch dialog; if they are right, retry later or ask Huawei Cloud support with the request id.</source>
        <translation>请检查启动对话框中的实例规格、镜像和可用区；如果都正确，请稍后重试，或带着请求 ID 联系华为云技术支持。</translation>
    </message>
    <message>
        <source>Huawei Cloud ECS could not take the task right now ({error_code}).</source>
        <translation>华为云 ECS 暂时无法受理该任务（{error_code}）。</translation>
    </message>
    <message>
        <source>Retry in a few minutes; if it keeps failing, ask Huawei Cloud support with the request id.</source>
        <translation>请几分钟后重试；若一直失败，请带着请求 ID 联系华为云技术支持。</translation>
    </message>
    <message>
        <source>This Huawei Cloud account has reached its ECS quota in {region} ({error_code}).</source>
        <translation>此华为云账号在 {region} 的 ECS 配额已用完（{error_code}）。</translation>
    </message>
    <message>
        <source>Terminate instances you no longer need, or ask for a higher quota (instances, vCPUs and memory) in the console: Resources &gt; My Quotas.</source>
        <translation>请释放不再需要的实例，或在控制台“资源 &gt; 我的配额”中申请提高配额（实例数、vCPU 和内存）。</translation>
    </message>
    <message>
        <source>This Huawei Cloud account has no EIP quota left in {region} ({error_code}).</source>
        <translation>此华为云账号在 {region} 的弹性公网 IP 配额已用完（{error_code}）。</translation>
    </message>
    <message>
        <source>Release EIPs you no longer use (Elastic IP in the console), or ask for a higher EIP quota in Resources &gt; My Quotas.</source>
        <translation>请在控制台“弹性公网IP”中释放不再使用的 EIP，或在“资源 &gt; 我的配额”中申请提高 EIP 配额。</translation>
    </message>
    <message>
        <source>Huawei Cloud restricts this account ({error_code}): the balance may be too low or the account frozen.</source>
        <translation>华为云限制了此账号（{error_code}）：可能余额不足或账号已被冻结。</translation>
    </message>
    <message>
        <source>Top up the account in the Billing Center (pay-per-use needs a positive balance) and check its status, then retry.</source>
        <translation>请在费用中心为账号充值（按需计费需要余额为正）并检查账号状态，然后重试。</translation>
    </message>
    <message>
        <source>LabGPU&apos;s subnet in {region} has no free IP address left ({error_code}).</source>
        <translation>LabGPU 在 {region} 的子网已没有空闲 IP 地址（{error_code}）。</translation>
    </message>
    <message>
        <source>Terminate instances you no longer need in that subnet, or delete the labgpu VPC&apos;s subnet in the console so that LabGPU creates a new one.</source>
        <translation>请释放该子网中不再需要的实例，或在控制台删除 labgpu VPC 的子网，让 LabGPU 重新创建一个。</translation>
    </message>
    <message>
        <source>{instance_id} is not in a state that allows {action} ({error_code}).</source>
        <translation>{instance_id} 当前的状态不允许执行 {action}（{error_code}）。</translation>
    </message>
    <message>
        <source>Reload the instances page and wait until it is running or stopped, then retry.</source>
        <translation>请刷新实例页面，等它变为运行中或已关机后再重试。</translation>
    </message>
    <message>
        <source>Huawei Cloud has no {instance_type} left in {zone} right now ({error_code}).</source>
        <translation>华为云 {zone} 目前没有可用的 {instance_type}（{error_code}）。</translation>
    </message>
    <message>
        <source>LabGPU tries the region&apos;s other zones; if none has capacity, pick another type or retry later.</source>
        <translation>LabGPU 会尝试该区域的其他可用区；若都没有资源，请换一种规格或稍后重试。</translation>
    </message>
    <message>
        <source>Stopped: a stopped Huawei Cloud pay-per-use instance no longer bills its vCPUs, memory and GPUs; its disks still bill, and so does its EIP&apos;s bandwidth when the EIP is billed by bandwidth (LabGPU&apos;s are billed by traffic). Terminate it to stop all charges.</source>
        <translation>已关机：关机的华为云按需实例不再收取 vCPU、内存和 GPU 的费用；云硬盘仍然计费，按带宽计费的 EIP 也仍收带宽费（LabGPU 创建的 EIP 按流量计费）。释放实例才能停止全部计费。</translation>
    </message>
    <message>
        <source>Huawei Cloud does not document that a stopped spot instance stops billing</source>
        <translation>华为云的文档没有说明竞价实例关机后停止计费</translation>
    </message>
    <message>
        <source>Huawei Cloud access key {key} ({region}: {n} availability zones)</source>
        <translation>华为云访问密钥 {key}（{region}：{n} 个可用区）</translation>
    </message>
    <message>
        <source>{instance_id} cannot be stopped: {reason_text}.</source>
        <translation>{instance_id} 无法关机：{reason_text}。</translation>
    </message>
    <message>
        <source>Only terminating surely ends its bill, and that deletes its disks: pull what you need first, then terminate it (labgpu terminate {instance_id}, or Terminate on the instances page).</source>
        <translation>只有释放实例才能确保停止计费，而释放会删除它的云硬盘：请先取回需要的数据，再释放它（labgpu terminate {instance_id}，或在实例页面点击“释放”）。</translation>
    </message>
    <message>
        <source>A stopped Huawei Cloud pay-per-use instance no longer bills its vCPUs, memory and GPUs; its disks still bill, and its EIP bills its bandwidth when the EIP is billed by bandwidth.</source>
        <translation>关机的华为云按需实例不再收取 vCPU、内存和 GPU 的费用；云硬盘仍然计费，按带宽计费的 EIP 仍收带宽费。</translation>
    </message>
    <message>
        <source>Huawei Cloud spot: billed at the market price up to your maximum and released without a choice when capacity runs low or the price passes the maximum. Huawei Cloud does not document that a stopped spot instance stops billing, so Stop and the guards terminate it (its disks and EIP go with it): pull what you need first.</source>
        <translation>华为云竞价实例：按市场价计费（不超过你的最高价），当资源不足或市场价超过最高价时会被直接释放。华为云的文档没有说明竞价实例关机后停止计费，所以“关机”和守护规则会释放它（云硬盘和 EIP 一并删除）：请先取回需要的数据。</translation>
    </message>
    <message>
        <source>optional: host or URL, e.g. http://127.0.0.1:9000</source>
        <translation>可选：主机名或 URL，例如 http://127.0.0.1:9000</translation>
    </message>
    <message>
        <source>Project ID</source>
        <translation>项目 ID</translation>
    </message>
    <message>
        <source>optional: looked up for the region when empty</source>
        <translation>可选：留空时按区域自动查询</translation>
    </message>
    <message>
        <source>Huawei Cloud from KooCLI&apos;s ~/.hcloud/config.json and HUAWEICLOUD_SDK_* variables</source>
        <translation>华为云（KooCLI 的 ~/.hcloud/config.json 和 HUAWEICLOUD_SDK_* 环境变量）</translation>
    </message>
    <message>
        <source>KooCLI profile {name}</source>
        <translation>KooCLI 配置项 {name}</translation>
    </message>
    <message>
        <source>Install it with: pip install huaweicloudsdkbss</source>
        <translation>请安装：pip install huaweicloudsdkbss</translation>
    </message>
    <message>
        <source>Check the file with &apos;hcloud configure test&apos;, fix it, and retry.</source>
        <translation>请用“hcloud configure test”检查该文件，修正后重试。</translation>
    </message>
    <message>
        <source>KooCLI stores the AK/SK of {profiles} encrypted in {path}: LabGPU cannot read them.</source>
        <translation>KooCLI 在 {path} 中加密保存了 {profiles} 的 AK/SK：LabGPU 无法读取。</translation>
    </message>
    <message>
        <source>Run &apos;hcloud configure set --cli-auth-encrypt=false&apos; (KooCLI then stores them readable), import again, then turn encryption back on; or add the account with its AK/SK by hand.</source>
        <translation>请运行“hcloud configure set --cli-auth-encrypt=false”（KooCLI 随后以可读形式保存），再次导入，然后重新打开加密；或手动用 AK/SK 添加账号。</translation>
    </message>
    <message>
        <source>Creating the labgpu VPC ({cidr})…</source>
        <translation>正在创建 labgpu VPC（{cidr}）…</translation>
    </message>
    <message>
        <source>Waiting for {resource} to become ACTIVE (now {state})…</source>
        <translation>正在等待 {resource} 变为 ACTIVE（当前 {state}）…</translation>
    </message>
    <message>
        <source>No public GPU or Ubuntu image supports {instance_type} in {region}.</source>
        <translation>{region} 没有支持 {instance_type} 的公共 GPU 镜像或 Ubuntu 镜像。</translation>
    </message>
    <message>
        <source>Pick an image id in the Huawei Cloud console (Image Management Service) and pass it with --image.</source>
        <translation>请在华为云控制台（镜像服务 IMS）中选一个镜像 ID，用 --image 传入。</translation>
    </message>
    <message>
        <source>Registering the SSH public key with Huawei Cloud…</source>
        <translation>正在向华为云注册 SSH 公钥…</translation>
    </message>
    <message>
        <source>Security group: SSH from {cidr} only.</source>
        <translation>安全组：仅允许来自 {cidr} 的 SSH。</translation>
    </message>
    <message>
        <source>Image {image}.</source>
        <translation>镜像 {image}。</translation>
    </message>
    <message>
        <source>GPU image {name}.</source>
        <translation>GPU 镜像 {name}。</translation>
    </message>
    <message>
        <source>No public image with the NVIDIA driver found for {type}: using {name}; install the NVIDIA driver and CUDA yourself.</source>
        <translation>没有找到适用于 {type} 且带 NVIDIA 驱动的公共镜像：使用 {name}；请自行安装 NVIDIA 驱动和 CUDA。</translation>
    </message>
    <message>
        <source>Requesting spot {type} in {zone} (maximum {price} {currency}/h)…</source>
        <translation>正在 {zone} 申请竞价实例 {type}（最高 {price} {currency}/小时）…</translation>
    </message>
    <message>
        <source>Requesting pay-per-use {type} in {zone}…</source>
        <translation>正在 {zone} 申请按需实例 {type}…</translation>
    </message>
    <message>
        <source>Huawei Cloud is creating the server (job {job}: {state})…</source>
        <translation>华为云正在创建云服务器（任务 {job}：{state}）…</translation>
    </message>
    <message>
        <source>Huawei Cloud finished the launch job but named no server.</source>
        <translation>华为云完成了创建任务，但没有返回云服务器 ID。</translation>
    </message>
    <message>
        <source>Open the instances page: LabGPU lists every tagged instance.</source>
        <translation>请打开实例页面：LabGPU 会列出所有带标签的实例。</translation>
    </message>
</context>
</TS>
