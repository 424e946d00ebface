<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>The Azure SDK is not installed ({module}).</source>
        <translation>未安装 Azure SDK（{module}）。</translation>
    </message>
    <message>
        <source>Install it with: pip install azure-identity azure-mgmt-compute azure-mgmt-network azure-mgmt-resource</source>
        <translation>用以下命令安装：pip install azure-identity azure-mgmt-compute azure-mgmt-network azure-mgmt-resource</translation>
    </message>
    <message>
        <source>The Azure account {name} has no {setting}.</source>
        <translation>Azure 账户 {name} 缺少 {setting}。</translation>
    </message>
    <message>
        <source>Edit the account and fill in the Directory (tenant) ID and the Subscription ID (az account show prints both).</source>
        <translation>编辑账户，填写目录（租户）ID 和订阅 ID（az account show 会同时显示两者）。</translation>
    </message>
    <message>
        <source>Azure&apos;s sign-in takes https only: use a URL such as https://127.0.0.1:8443, or leave the endpoint empty for Azure itself.</source>
        <translation>Azure 登录只接受 https：请使用 https://127.0.0.1:8443 这样的地址，或留空终端节点以直接使用 Azure。</translation>
    </message>
    <message>
        <source>Microsoft Entra ID refused the client secret of this service principal.</source>
        <translation>Microsoft Entra ID 拒绝了此服务主体的客户端密码。</translation>
    </message>
    <message>
        <source>Paste the secret&apos;s Value (not its Secret ID) again: edit the account; or create a new client secret under App registrations &gt; Certificates &amp; secrets.</source>
        <translation>编辑账户，重新粘贴密码的“值”（不是“密码 ID”）；或在“应用注册 &gt; 证书和密码”下新建客户端密码。</translation>
    </message>
    <message>
        <source>The client secret of this service principal has expired.</source>
        <translation>此服务主体的客户端密码已过期。</translation>
    </message>
    <message>
        <source>Create a new client secret under App registrations &gt; Certificates &amp; secrets and edit the account.</source>
        <translation>在“应用注册 &gt; 证书和密码”下新建客户端密码，然后编辑账户。</translation>
    </message>
    <message>
        <source>Microsoft Entra ID does not know this client id in tenant {tenant}.</source>
        <translation>Microsoft Entra ID 在租户 {tenant} 中找不到此客户端 ID。</translation>
    </message>
    <message>
        <source>Check the Application (client) ID and the Directory (tenant) ID on the app&apos;s Overview page, then edit the account.</source>
        <translation>在应用的“概述”页核对应用程序（客户端）ID 和目录（租户）ID，然后编辑账户。</translation>
    </message>
    <message>
        <source>Microsoft Entra ID does not know the tenant {tenant}.</source>
        <translation>Microsoft Entra ID 找不到租户 {tenant}。</translation>
    </message>
    <message>
        <source>Copy the Directory (tenant) ID from the app&apos;s Overview page into the account&apos;s tenant field.</source>
        <translation>从应用的“概述”页复制目录（租户）ID，填入账户的租户字段。</translation>
    </message>
    <message>
        <source>Azure Resource Manager refused the access token ({error_code}).</source>
        <translation>Azure 资源管理器拒绝了访问令牌（{error_code}）。</translation>
    </message>
    <message>
        <source>Check that the tenant of the account is the subscription&apos;s tenant, and this computer&apos;s clock; then run &apos;labgpu accounts test&apos;.</source>
        <translation>请确认账户的租户就是该订阅所属的租户，并检查本机时钟；然后运行 &apos;labgpu accounts test&apos;。</translation>
    </message>
    <message>
        <source>This service principal may not call {action} in subscription {subscription} (AuthorizationFailed).</source>
        <translation>此服务主体无权在订阅 {subscription} 中调用 {action}（AuthorizationFailed）。</translation>
    </message>
    <message>
        <source>Ask the subscription&apos;s owner to give the app the Contributor role (or Virtual Machine Contributor and Network Contributor) on the subscription.</source>
        <translation>请订阅所有者在该订阅上为此应用分配“参与者”角色（或“虚拟机参与者”和“网络参与者”）。</translation>
    </message>
    <message>
        <source>Azure does not know the subscription {subscription}, or this service principal cannot see it.</source>
        <translation>Azure 找不到订阅 {subscription}，或此服务主体看不到它。</translation>
    </message>
    <message>
        <source>Copy the Subscription ID from the portal&apos;s Subscriptions page into the account, and give the app a role on it.</source>
        <translation>从门户的“订阅”页复制订阅 ID 填入账户，并在该订阅上为应用分配角色。</translation>
    </message>
    <message>
        <source>The Azure subscription {subscription} is disabled or read-only.</source>
        <translation>Azure 订阅 {subscription} 已禁用或处于只读状态。</translation>
    </message>
    <message>
        <source>Re-enable it (pay the open bill, or upgrade a free trial) in the portal&apos;s Subscriptions page, then retry.</source>
        <translation>在门户的“订阅”页重新启用它（付清未结账单，或升级免费试用），然后重试。</translation>
    </message>
    <message>
        <source>The subscription is not registered for the resource provider {action} needs (MissingSubscriptionRegistration).</source>
        <translation>该订阅尚未注册 {action} 所需的资源提供程序（MissingSubscriptionRegistration）。</translation>
    </message>
    <message>
        <source>Register Microsoft.Compute and Microsoft.Network under Subscriptions &gt; Resource providers (az provider register -n Microsoft.Compute), then retry.</source>
        <translation>在“订阅 &gt; 资源提供程序”中注册 Microsoft.Compute 和 Microsoft.Network（az provider register -n Microsoft.Compute），然后重试。</translation>
    </message>
    <message>
        <source>An Azure Policy of this subscription forbids the request: {provider_message}</source>
        <translation>此订阅的 Azure Policy 禁止该请求：{provider_message}</translation>
    </message>
    <message>
        <source>Ask the subscription&apos;s administrator which sizes, regions or tags the policy allows.</source>
        <translation>请向订阅管理员询问该策略允许哪些规格、区域或标记。</translation>
    </message>
    <message>
        <source>Azure has no {instance_type} left in {location} zone {zone} right now ({error_code}).</source>
        <translation>Azure 在 {location} 可用区 {zone} 目前没有 {instance_type} 的余量（{error_code}）。</translation>
    </message>
    <message>
        <source>Try another zone, size or region, or retry later.</source>
        <translation>请换一个可用区、规格或区域，或稍后重试。</translation>
    </message>
    <message>
        <source>{instance_type} is not available in {location} zone {zone} for this subscription (SkuNotAvailable).</source>
        <translation>{instance_type} 在 {location} 可用区 {zone} 对此订阅不可用（SkuNotAvailable）。</translation>
    </message>
    <message>
        <source>Try another zone or region; &apos;az vm list-skus -l {location} --size {instance_type} --all&apos; shows where it is offered, and a support request can open it.</source>
        <translation>请换一个可用区或区域；&apos;az vm list-skus -l {location} --size {instance_type} --all&apos; 可列出在哪里提供，提交支持请求可开通。</translation>
    </message>
    <message>
        <source>Your Azure vCPU quota is too small for {instance_type} in {location} ({error_code}): {provider_message}</source>
        <translation>你的 Azure vCPU 配额不足以在 {location} 创建 {instance_type}（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Request more vCPUs of this family (or Spot vCPUs) under Subscriptions &gt; Usage + quotas; new subscriptions often have 0 for GPU families.</source>
        <translation>在“订阅 &gt; 使用情况 + 配额”中为该系列（或 Spot vCPU）申请更多 vCPU；新订阅的 GPU 系列配额通常为 0。</translation>
    </message>
    <message>
        <source>Your Spot maximum {max_price} USD/h is below the current Spot price of {instance_type} ({error_code}).</source>
        <translation>你的 Spot 最高价 {max_price} USD/小时低于 {instance_type} 当前的 Spot 价格（{error_code}）。</translation>
    </message>
    <message>
        <source>Raise --max-price, or leave it out (80 % of the on-demand price), or launch on demand.</source>
        <translation>提高 --max-price，或不指定（按需价格的 80%），或改用按需实例。</translation>
    </message>
    <message>
        <source>Azure Spot is not available for this request ({error_code}): {provider_message}</source>
        <translation>此请求无法使用 Azure Spot（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Launch on demand, or pick a size and subscription that take Spot (not free trial or sponsored subscriptions).</source>
        <translation>改用按需实例，或选择支持 Spot 的规格和订阅（免费试用和赞助订阅不支持）。</translation>
    </message>
    <message>
        <source>Azure does not have {instance_id} (any more): {provider_message}</source>
        <translation>Azure 上（已）没有 {instance_id}：{provider_message}</translation>
    </message>
    <message>
        <source>Reload the instances page: it may have been deleted in the portal.</source>
        <translation>请刷新实例页面：它可能已在门户中被删除。</translation>
    </message>
    <message>
        <source>Azure is still busy with another operation on {instance_id} ({error_code}).</source>
        <translation>Azure 仍在对 {instance_id} 执行另一项操作（{error_code}）。</translation>
    </message>
    <message>
        <source>Wait a minute, reload the instances page, then retry.</source>
        <translation>请等一分钟，刷新实例页面后重试。</translation>
    </message>
    <message>
        <source>Azure Resource Manager is throttling this subscription&apos;s requests.</source>
        <translation>Azure 资源管理器正在限制此订阅的请求频率。</translation>
    </message>
    <message>
        <source>Wait a minute and retry; other tools using the same subscription count too.</source>
        <translation>请等一分钟后重试；使用同一订阅的其他工具也会计入限额。</translation>
    </message>
    <message>
        <source>Azure does not offer this in {location} ({error_code}).</source>
        <translation>Azure 在 {location} 不提供此资源（{error_code}）。</translation>
    </message>
    <message>
        <source>Edit the account and pick a region name such as eastus or westeurope (az account list-locations).</source>
        <translation>编辑账户，选择 eastus 或 westeurope 这样的区域名称（az account list-locations）。</translation>
    </message>
    <message>
        <source>Azure refused the request ({error_code}): {provider_message}</source>
        <translation>Azure 拒绝了请求（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Check the size, image and region; quote request id {rid} if you contact support.</source>
        <translation>请检查规格、镜像和区域；联系支持时请提供请求 ID {rid}。</translation>
    </message>
    <message>
        <source>Creating the network (VNet {name}, {cidr})…</source>
        <translation>正在创建网络（虚拟网络 {name}，{cidr}）…</translation>
    </message>
    <message>
        <source>The SSH public key goes into the VM&apos;s authorized_keys (user {user}).</source>
        <translation>SSH 公钥将写入虚拟机的 authorized_keys（用户 {user}）。</translation>
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
        <source>GPU image {name} (NVIDIA driver and CUDA).</source>
        <translation>GPU 镜像 {name}（含 NVIDIA 驱动和 CUDA）。</translation>
    </message>
    <message>
        <source>No image with the NVIDIA driver for {type}: using {name}; install the NVIDIA driver and CUDA yourself.</source>
        <translation>没有适用于 {type} 且带 NVIDIA 驱动的镜像：使用 {name}；请自行安装 NVIDIA 驱动和 CUDA。</translation>
    </message>
    <message>
        <source>Requesting Spot {type} in {zone} (maximum {price} USD/h, evicted VMs are deallocated)…</source>
        <translation>正在 {zone} 请求 Spot {type}（最高 {price} USD/小时，被逐出的虚拟机会被解除分配）…</translation>
    </message>
    <message>
        <source>Requesting pay-as-you-go {type} in {zone}…</source>
        <translation>正在 {zone} 请求按量付费的 {type}…</translation>
    </message>
    <message>
        <source>Waiting for Azure to allocate and start {name}…</source>
        <translation>正在等待 Azure 分配并启动 {name}…</translation>
    </message>
    <message>
        <source>Azure accepted the launch but does not list {name}.</source>
        <translation>Azure 接受了启动请求，但列表中没有 {name}。</translation>
    </message>
    <message>
        <source>Open the instances page: LabGPU lists every tagged instance.</source>
        <translation>请打开实例页面：LabGPU 会列出所有带标签的实例。</translation>
    </message>
    <message>
        <source>Azure service principal {key} in subscription {subscription} ({n} resource groups)</source>
        <translation>订阅 {subscription} 中的 Azure 服务主体 {key}（{n} 个资源组）</translation>
    </message>
    <message>
        <source>Stop deallocates the Azure VM: its compute stops billing; its OS disk and its static public IP address still bill. A VM only powered off from inside (shutdown) or with &apos;Power off&apos; keeps billing the full compute price.</source>
        <translation>停止会解除分配 Azure 虚拟机：计算不再计费；其系统盘和静态公网 IP 仍然计费。仅从系统内部关机（shutdown）或用“关闭电源”停止的虚拟机仍按完整计算价格计费。</translation>
    </message>
    <message>
        <source>Directory (tenant) ID</source>
        <translation>目录（租户）ID</translation>
    </message>
    <message>
        <source>the app registration&apos;s Overview page, or az account show</source>
        <translation>应用注册的“概述”页，或 az account show</translation>
    </message>
    <message>
        <source>Subscription ID</source>
        <translation>订阅 ID</translation>
    </message>
    <message>
        <source>the portal&apos;s Subscriptions page</source>
        <translation>门户的“订阅”页</translation>
    </message>
    <message>
        <source>Resource group</source>
        <translation>资源组</translation>
    </message>
    <message>
        <source>optional: default labgpu-&lt;region&gt;, made on first launch</source>
        <translation>可选：默认 labgpu-&lt;区域&gt;，首次启动时创建</translation>
    </message>
    <message>
        <source>Retail Prices API address</source>
        <translation>零售价格 API 地址</translation>
    </message>
    <message>
        <source>optional: default https://prices.azure.com/api/retail/prices</source>
        <translation>可选：默认 https://prices.azure.com/api/retail/prices</translation>
    </message>
    <message>
        <source>Client (application) ID</source>
        <translation>客户端（应用程序）ID</translation>
    </message>
    <message>
        <source>Client secret</source>
        <translation>客户端密码</translation>
    </message>
    <message>
        <source>optional: https URL of an Azure Resource Manager and sign-in proxy, e.g. https://127.0.0.1:8443</source>
        <translation>可选：Azure 资源管理器和登录代理的 https 地址，例如 https://127.0.0.1:8443</translation>
    </message>
    <message>
        <source>Azure service principal from AZURE_* variables</source>
        <translation>来自 AZURE_* 环境变量的 Azure 服务主体</translation>
    </message>
    <message>
        <source>Azure environment variables {name}</source>
        <translation>Azure 环境变量 {name}</translation>
    </message>
</context>
</TS>
