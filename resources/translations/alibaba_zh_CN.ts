<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>The Alibaba Cloud SDK is not installed ({module}).</source>
        <translation>未安装阿里云 SDK（{module}）。</translation>
    </message>
    <message>
        <source>Install it with: pip install alibabacloud-ecs20140526 alibabacloud-tea-openapi</source>
        <translation>请安装：pip install alibabacloud-ecs20140526 alibabacloud-tea-openapi</translation>
    </message>
    <message>
        <source>Install it with: pip install alibabacloud-vpc20160428</source>
        <translation>请用以下命令安装：pip install alibabacloud-vpc20160428</translation>
    </message>
    <message>
        <source>Use a host such as ecs.cn-hangzhou.aliyuncs.com or a URL such as http://127.0.0.1:9000.</source>
        <translation>请使用 ecs.cn-hangzhou.aliyuncs.com 这样的主机名，或 http://127.0.0.1:9000 这样的地址。</translation>
    </message>
    <message>
        <source>Fix the file (run &apos;aliyun configure&apos; again) and retry.</source>
        <translation>请修复该文件（重新运行 &apos;aliyun configure&apos;）后重试。</translation>
    </message>
    <message>
        <source>Alibaba Cloud&apos;s new network {resource} is still {state} after {seconds} s.</source>
        <translation>阿里云新建的网络 {resource} 在 {seconds} 秒后仍为 {state}。</translation>
    </message>
    <message>
        <source>Launch again in a few minutes: LabGPU finds and reuses the network it created, it never makes a second one.</source>
        <translation>请过几分钟再次启动：LabGPU 会找到并复用它已创建的网络，不会再建第二个。</translation>
    </message>
    <message>
        <source>Waiting for {resource} to become Available (now {state})…</source>
        <translation>正在等待 {resource} 变为可用（当前 {state}）…</translation>
    </message>
    <message>
        <source>Creating the network (VPC {name}, {cidr})…</source>
        <translation>正在创建网络（专有网络 {name}，{cidr}）…</translation>
    </message>
    <message>
        <source>Creating a vSwitch in {zone} ({cidr})…</source>
        <translation>正在 {zone} 创建交换机（{cidr}）…</translation>
    </message>
    <message>
        <source>No public GPU or Ubuntu image supports {instance_type} in {region}.</source>
        <translation>{region} 中没有支持 {instance_type} 的公共 GPU 或 Ubuntu 镜像。</translation>
    </message>
    <message>
        <source>Pick an image id or family in the ECS console and pass it with --image.</source>
        <translation>请在 ECS 控制台选择镜像 ID 或镜像族系，并用 --image 传入。</translation>
    </message>
    <message>
        <source>Registering the SSH public key with Alibaba Cloud…</source>
        <translation>正在向阿里云导入 SSH 公钥…</translation>
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
        <source>GPU image {name} (family {family}).</source>
        <translation>GPU 镜像 {name}（族系 {family}）。</translation>
    </message>
    <message>
        <source>No public image with the NVIDIA driver found for {type}: using {name} (family {family}); install the NVIDIA driver and CUDA yourself.</source>
        <translation>没有找到适用于 {type} 且带 NVIDIA 驱动的公共镜像：使用 {name}（族系 {family}）；请自行安装 NVIDIA 驱动和 CUDA。</translation>
    </message>
    <message>
        <source>Requesting spot {type} in {zone} (maximum {price} {currency}/h)…</source>
        <translation>正在 {zone} 申请抢占式 {type}（最高 {price} {currency}/小时）…</translation>
    </message>
    <message>
        <source>Requesting pay-as-you-go {type} in {zone}…</source>
        <translation>正在 {zone} 申请按量付费 {type}…</translation>
    </message>
    <message>
        <source>Alibaba Cloud accepted the launch but returned no instance id.</source>
        <translation>阿里云接受了启动请求，但没有返回实例 ID。</translation>
    </message>
    <message>
        <source>Open the instances page: LabGPU lists every tagged instance.</source>
        <translation>请打开实例页面：LabGPU 会列出所有带标签的实例。</translation>
    </message>
    <message>
        <source>Stopped without charging (economical mode): CPU, GPU and memory no longer bill; the disks still bill, and the public IP is released (it may change when the instance starts again).</source>
        <translation>已节省停机（停机不收费）：CPU、GPU 和内存不再计费；云盘仍然计费，公网 IP 已释放（再次启动时可能改变）。</translation>
    </message>
    <message>
        <source>Stopped, but this instance cannot stop without charging (its type, local disks or billing method do not allow it): it still bills the full hourly price, and its disks bill too. Terminate it to stop all charges.</source>
        <translation>已停机，但该实例不能停机不收费（其规格、本地盘或付费方式不允许）：仍按完整小时价计费，云盘也计费。释放实例才能停止全部费用。</translation>
    </message>
    <message>
        <source>{region} is not an Alibaba Cloud region this key can use.</source>
        <translation>{region} 不是此密钥可以使用的阿里云地域。</translation>
    </message>
    <message>
        <source>Alibaba Cloud AccessKey {key} ({n} regions)</source>
        <translation>阿里云 AccessKey {key}（{n} 个地域）</translation>
    </message>
    <message>
        <source>Alibaba Cloud</source>
        <translation>阿里云</translation>
    </message>
    <message>
        <source>Alibaba Cloud bills pay-as-you-go per second and issues a bill every hour.</source>
        <translation>阿里云按量付费按秒计费，每小时出账。</translation>
    </message>
    <message>
        <source>its price API (DescribePrice) needs a signed account request</source>
        <translation>其价格 API（DescribePrice）需要账号签名请求</translation>
    </message>
    <message>
        <source>AccessKey ID</source>
        <translation>AccessKey ID</translation>
    </message>
    <message>
        <source>AccessKey Secret</source>
        <translation>AccessKey Secret</translation>
    </message>
    <message>
        <source>optional: host or URL, e.g. http://127.0.0.1:9000</source>
        <translation>可选：主机名或地址，例如 http://127.0.0.1:9000</translation>
    </message>
    <message>
        <source>A stopped Alibaba Cloud instance stops billing for CPU, GPU and memory only where its type allows it (StopCharging); its disks and any EIP still bill.</source>
        <translation>阿里云实例停机后，只有规格允许时（停机不收费）才停止 CPU、GPU 和内存计费；云盘和弹性公网 IP 仍然计费。</translation>
    </message>
    <message>
        <source>Alibaba Cloud from ~/.aliyun/config.json and ALIBABA_CLOUD_* variables</source>
        <translation>阿里云：从 ~/.aliyun/config.json 和 ALIBABA_CLOUD_* 环境变量导入</translation>
    </message>
    <message>
        <source>Alibaba CLI profile {name}</source>
        <translation>阿里云 CLI 配置 {name}</translation>
    </message>
    <message>
        <source>Alibaba Cloud does not know this AccessKey ID (deleted, or mistyped).</source>
        <translation>阿里云找不到这个 AccessKey ID（已删除或输入有误）。</translation>
    </message>
    <message>
        <source>Create an AccessKey in the RAM console (AccessKey management) and edit the account.</source>
        <translation>请在 RAM 控制台（AccessKey 管理）创建 AccessKey，然后编辑账户。</translation>
    </message>
    <message>
        <source>This Alibaba Cloud AccessKey is disabled.</source>
        <translation>此阿里云 AccessKey 已被禁用。</translation>
    </message>
    <message>
        <source>Enable it in the RAM console, or create a new AccessKey and edit the account.</source>
        <translation>请在 RAM 控制台启用它，或创建新的 AccessKey 并编辑账户。</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused the signature: the AccessKey Secret does not match the AccessKey ID.</source>
        <translation>阿里云拒绝了签名：AccessKey Secret 与 AccessKey ID 不匹配。</translation>
    </message>
    <message>
        <source>Edit the account and paste the AccessKey Secret again (it is shown only when the key is created: create a new AccessKey if you no longer have it).</source>
        <translation>请编辑账户并重新粘贴 AccessKey Secret（它只在创建密钥时显示：若已找不到，请新建一个 AccessKey）。</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused the request because this computer&apos;s clock is more than 15 minutes off.</source>
        <translation>阿里云拒绝了请求，因为本机时钟偏差超过 15 分钟。</translation>
    </message>
    <message>
        <source>Fix the clock: turn on automatic time (NTP) in the system settings, then retry.</source>
        <translation>请校准时钟：在系统设置中开启自动对时（NTP），然后重试。</translation>
    </message>
    <message>
        <source>This AccessKey may not call {action}: its RAM policy does not allow it ({error_code}).</source>
        <translation>此 AccessKey 无权调用 {action}：其 RAM 策略不允许（{error_code}）。</translation>
    </message>
    <message>
        <source>Ask the account owner to grant AliyunECSFullAccess and AliyunVPCFullAccess to this RAM user, or use an AccessKey that has them.</source>
        <translation>请让主账号为该 RAM 用户授予 AliyunECSFullAccess 和 AliyunVPCFullAccess，或使用具备这些权限的 AccessKey。</translation>
    </message>
    <message>
        <source>Alibaba Cloud does not let this account do that yet ({error_code}): {provider_message}</source>
        <translation>阿里云暂不允许此账号执行该操作（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Finish real-name verification and any security check in the Alibaba Cloud console, or ask Alibaba Cloud support to open this feature or region for the account.</source>
        <translation>请在阿里云控制台完成实名认证和安全验证，或联系阿里云客服为该账号开通此功能或地域。</translation>
    </message>
    <message>
        <source>The Alibaba Cloud account&apos;s balance is too low (or a bill is overdue) for pay-as-you-go instances.</source>
        <translation>阿里云账户余额不足（或有欠费），无法使用按量付费实例。</translation>
    </message>
    <message>
        <source>Top up the account in the Billing console (pay-as-you-go needs a positive balance), then retry.</source>
        <translation>请在费用中心充值（按量付费需要余额为正），然后重试。</translation>
    </message>
    <message>
        <source>Alibaba Cloud has no {instance_type} left in {zone} right now.</source>
        <translation>阿里云 {zone} 目前没有 {instance_type} 库存。</translation>
    </message>
    <message>
        <source>LabGPU tries the region&apos;s other zones; if none has stock, pick another type or retry later.</source>
        <translation>LabGPU 会尝试该地域的其他可用区；若都没有库存，请换一种规格或稍后重试。</translation>
    </message>
    <message>
        <source>Zone {zone} does not sell this configuration ({error_code}).</source>
        <translation>可用区 {zone} 不售卖此配置（{error_code}）。</translation>
    </message>
    <message>
        <source>Pick another zone of {region}, or let LabGPU choose the zone.</source>
        <translation>请选择 {region} 的其他可用区，或让 LabGPU 自动选择。</translation>
    </message>
    <message>
        <source>Alibaba Cloud does not offer instance type {instance_type} to this account in {region} ({error_code}).</source>
        <translation>阿里云在 {region} 不向此账号提供实例规格 {instance_type}（{error_code}）。</translation>
    </message>
    <message>
        <source>Refresh prices to see the types the region sells; some GPU types must first be unlocked in the ECS console (Quota Center → privileges).</source>
        <translation>请刷新价格查看该地域售卖的规格；部分 GPU 规格需先在 ECS 控制台（配额中心 → 权益）开通。</translation>
    </message>
    <message>
        <source>A quota of this Alibaba Cloud account is used up ({error_code}): {provider_message}</source>
        <translation>此阿里云账号的某项配额已用完（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Release what you no longer use, or ask for more in the Quota Center (ECS console → Quotas).</source>
        <translation>请释放不再使用的资源，或在配额中心（ECS 控制台 → 配额）申请提额。</translation>
    </message>
    <message>
        <source>The vCPU quota for {instance_type} in {region} is used up.</source>
        <translation>{region} 中 {instance_type} 的 vCPU 配额已用完。</translation>
    </message>
    <message>
        <source>Release instances you no longer use, or request a higher vCPU quota in the Quota Center (ECS console → Quotas).</source>
        <translation>请释放不再使用的实例，或在配额中心（ECS 控制台 → 配额）申请更高的 vCPU 配额。</translation>
    </message>
    <message>
        <source>Alibaba Cloud cannot {action} now: the resource is in the middle of another change ({error_code}).</source>
        <translation>阿里云现在无法执行 {action}：资源正处于另一项变更中（{error_code}）。</translation>
    </message>
    <message>
        <source>Reload the instances page, wait until the instance is Running or Stopped, then retry.</source>
        <translation>请刷新实例页面，等实例变为运行中或已停止后重试。</translation>
    </message>
    <message>
        <source>Alibaba Cloud has locked this instance ({error_code}): {provider_message}</source>
        <translation>阿里云已锁定此实例（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Read the notice in the ECS console (security or overdue payment) and resolve it there.</source>
        <translation>请在 ECS 控制台查看通知（安全或欠费）并在那里处理。</translation>
    </message>
    <message>
        <source>Alibaba Cloud is limiting how fast this account calls its API ({error_code}).</source>
        <translation>阿里云正在限制此账号调用 API 的频率（{error_code}）。</translation>
    </message>
    <message>
        <source>Wait a minute and retry.</source>
        <translation>请等一分钟后重试。</translation>
    </message>
    <message>
        <source>Alibaba Cloud had an internal error ({error_code}).</source>
        <translation>阿里云发生内部错误（{error_code}）。</translation>
    </message>
    <message>
        <source>Retry in a minute; if it keeps failing, quote request id {rid} to Alibaba Cloud support.</source>
        <translation>请一分钟后重试；若持续失败，请向阿里云客服提供请求 ID {rid}。</translation>
    </message>
    <message>
        <source>Alibaba Cloud has no instance {instance_id} in {region}.</source>
        <translation>阿里云在 {region} 中没有实例 {instance_id}。</translation>
    </message>
    <message>
        <source>It may have been released already: reload the instances page.</source>
        <translation>它可能已被释放：请刷新实例页面。</translation>
    </message>
    <message>
        <source>The spot maximum price {max_price} {currency}/h is below what Alibaba Cloud asks for {instance_type} in {zone} (spot price now: {price} {currency}/h).</source>
        <translation>抢占式实例最高价 {max_price} {currency}/小时 低于阿里云 {zone} 中 {instance_type} 的要价（当前抢占价：{price} {currency}/小时）。</translation>
    </message>
    <message>
        <source>Raise the maximum price to at least the current spot price, or launch on demand.</source>
        <translation>请把最高价提高到不低于当前抢占价，或改用按量付费启动。</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused the spot request ({error_code}): {provider_message}</source>
        <translation>阿里云拒绝了抢占式实例请求（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Launch on demand, or pick a type that is sold as spot in this zone.</source>
        <translation>请改用按量付费启动，或选择该可用区以抢占式售卖的规格。</translation>
    </message>
    <message>
        <source>The image cannot be used for {instance_type} ({error_code}): {provider_message}</source>
        <translation>该镜像不能用于 {instance_type}（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Let LabGPU pick the GPU image, or choose another public image (ECS console → Images).</source>
        <translation>请让 LabGPU 选择 GPU 镜像，或选择其他公共镜像（ECS 控制台 → 镜像）。</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused the disk settings ({error_code}): {provider_message}</source>
        <translation>阿里云拒绝了云盘设置（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Pick another disk size or category, or an instance type whose zone offers that disk.</source>
        <translation>请换一种云盘大小或类型，或选择其可用区提供该云盘的实例规格。</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused LabGPU&apos;s network setup ({error_code}): {provider_message}</source>
        <translation>阿里云拒绝了 LabGPU 的网络配置（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>LabGPU reuses the VPC, vSwitch and security group tagged labgpu-resource: if they were changed in the console, delete them there and launch again.</source>
        <translation>LabGPU 会复用带 labgpu-resource 标签的专有网络、交换机和安全组：如果它们在控制台中被修改过，请在控制台删除后重新启动。</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused the SSH public key ({error_code}): {provider_message}</source>
        <translation>阿里云拒绝了 SSH 公钥（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Choose another key in the launch dialog (an OpenSSH RSA key works everywhere), or let LabGPU create one.</source>
        <translation>请在启动对话框中选择其他密钥（OpenSSH RSA 密钥到处可用），或让 LabGPU 创建一个。</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused the billing settings ({error_code}): {provider_message}</source>
        <translation>阿里云拒绝了计费设置（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Launch pay-as-you-go (or spot) with the default bandwidth; subscriptions are bought in the ECS console.</source>
        <translation>请以按量付费（或抢占式）和默认带宽启动；包年包月请在 ECS 控制台购买。</translation>
    </message>
    <message>
        <source>{instance_id} has release protection turned on.</source>
        <translation>{instance_id} 已开启释放保护。</translation>
    </message>
    <message>
        <source>Turn release protection off in the ECS console, then terminate it again.</source>
        <translation>请在 ECS 控制台关闭释放保护，然后再次释放。</translation>
    </message>
    <message>
        <source>The instance is still used by another resource ({error_code}): {provider_message}</source>
        <translation>该实例仍被其他资源使用（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Remove it from the route table, load balancer or network interface it belongs to, then retry.</source>
        <translation>请将其从所属的路由表、负载均衡或弹性网卡中移除，然后重试。</translation>
    </message>
    <message>
        <source>{region} is not an Alibaba Cloud region this key can use ({error_code}).</source>
        <translation>{region} 不是此密钥可以使用的阿里云地域（{error_code}）。</translation>
    </message>
    <message>
        <source>Edit the account and pick a region such as cn-hangzhou.</source>
        <translation>请编辑账户并选择 cn-hangzhou 等地域。</translation>
    </message>
    <message>
        <source>Alibaba Cloud has no price for {instance_type} in {zone} ({error_code}).</source>
        <translation>阿里云没有 {zone} 中 {instance_type} 的价格（{error_code}）。</translation>
    </message>
    <message>
        <source>The type is not sold there: refresh prices and pick a type the region sells.</source>
        <translation>该规格在那里不售卖：请刷新价格并选择该地域售卖的规格。</translation>
    </message>
    <message>
        <source>Alibaba Cloud refused a parameter of {action} ({error_code}): {provider_message}</source>
        <translation>阿里云拒绝了 {action} 的一个参数（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>This is most likely a LabGPU bug: report it with the code and request id {rid}.</source>
        <translation>这很可能是 LabGPU 的缺陷：请附上错误码和请求 ID {rid} 报告。</translation>
    </message>
    <message>
        <source>Install it with: pip install alibabacloud-actiontrail20200706</source>
        <translation>请安装：pip install alibabacloud-actiontrail20200706</translation>
    </message>
</context>
</TS>
