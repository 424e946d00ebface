<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>Check the access key id and secret of account '{account}' (remove and add it again with the values from IAM → Security credentials) and that the key is active.</source>
        <translation>请检查账号“{account}”的访问密钥 ID 和私有访问密钥（在 IAM → 安全凭证中重新获取，删除账号后重新添加），并确认该密钥处于启用状态。</translation>
    </message>
    <message>
        <source>AWS rejected the request because this computer's clock is wrong (more than 5 minutes off).</source>
        <translation>AWS 拒绝了请求：这台电脑的时钟不准（误差超过 5 分钟）。</translation>
    </message>
    <message>
        <source>Fix your clock: turn on automatic date and time (NTP), then retry.</source>
        <translation>请校准时钟：打开“自动设置日期和时间”（NTP），然后重试。</translation>
    </message>
    <message>
        <source>AWS refused the credentials of account '{account}'.</source>
        <translation>AWS 拒绝了账号“{account}”的凭证。</translation>
    </message>
    <message>
        <source>AWS does not know the access key id of account '{account}'.</source>
        <translation>AWS 不认识账号“{account}”的访问密钥 ID。</translation>
    </message>
    <message>
        <source>The secret access key of account '{account}' does not match its key id.</source>
        <translation>账号“{account}”的私有访问密钥与其密钥 ID 不匹配。</translation>
    </message>
    <message>
        <source>The session token of account '{account}' has expired.</source>
        <translation>账号“{account}”的会话令牌已过期。</translation>
    </message>
    <message>
        <source>Get new temporary credentials (aws sts get-session-token or your SSO login) and add the account again.</source>
        <translation>请获取新的临时凭证（aws sts get-session-token 或 SSO 登录），然后重新添加账号。</translation>
    </message>
    <message>
        <source>The IAM user of account '{account}' may not do this ({action}).</source>
        <translation>账号“{account}”的 IAM 用户无权执行此操作（{action}）。</translation>
    </message>
    <message>
        <source>Ask the AWS account's admin to allow ec2:{action} (e.g. attach AmazonEC2FullAccess) to this user.</source>
        <translation>请让 AWS 账号管理员为该用户授予 ec2:{action} 权限（例如附加 AmazonEC2FullAccess）。</translation>
    </message>
    <message>
        <source>Ask the AWS account's admin to allow {action} for this user.</source>
        <translation>请让 AWS 账号管理员为该用户授予 {action} 权限。</translation>
    </message>
    <message>
        <source>Account '{account}' is not subscribed to EC2 in {region}.</source>
        <translation>账号“{account}”尚未在 {region} 开通 EC2。</translation>
    </message>
    <message>
        <source>Finish the AWS sign-up (payment method) or enable the region in the AWS console, then retry.</source>
        <translation>请完成 AWS 注册（绑定付款方式）或在 AWS 控制台中启用该区域，然后重试。</translation>
    </message>
    <message>
        <source>AWS has no free {instance_type} capacity in {zone} right now.</source>
        <translation>AWS 目前在 {zone} 没有空闲的 {instance_type} 容量。</translation>
    </message>
    <message>
        <source>Try another zone or region, a similar instance type, or retry in a few minutes.</source>
        <translation>请换一个可用区或区域、换相近的实例类型，或几分钟后重试。</translation>
    </message>
    <message>
        <source>AWS cannot fulfil a {instance_type} request in {zone} right now.</source>
        <translation>AWS 目前无法在 {zone} 满足 {instance_type} 的请求。</translation>
    </message>
    <message>
        <source>Try another zone, on-demand instead of spot, or retry later.</source>
        <translation>请换一个可用区、改用按需实例而非竞价实例，或稍后重试。</translation>
    </message>
    <message>
        <source>The default subnet in {zone} has no free addresses.</source>
        <translation>{zone} 的默认子网没有空闲地址。</translation>
    </message>
    <message>
        <source>Try another zone, or free addresses in that subnet.</source>
        <translation>请换一个可用区，或释放该子网中的地址。</translation>
    </message>
    <message>
        <source>AWS does not offer {instance_type} in {zone}.</source>
        <translation>AWS 在 {zone} 不提供 {instance_type}。</translation>
    </message>
    <message>
        <source>Choose another zone or region where this type exists.</source>
        <translation>请选择提供该实例类型的其他可用区或区域。</translation>
    </message>
    <message>
        <source>Your vCPU quota is too low to launch {instance_type} in {region}.</source>
        <translation>你的 vCPU 配额不足，无法在 {region} 启动 {instance_type}。</translation>
    </message>
    <message>
        <source>Request an increase of the quota '{quota}' ({quota_code}) in Service Quotas → Amazon EC2 for {region}; new accounts start at 0.</source>
        <translation>请在 Service Quotas → Amazon EC2 中为 {region} 申请提高配额“{quota}”（{quota_code}）；新账号的初始配额为 0。</translation>
    </message>
    <message>
        <source>Account '{account}' has reached its instance limit in {region}.</source>
        <translation>账号“{account}”在 {region} 的实例数量已达上限。</translation>
    </message>
    <message>
        <source>Terminate instances you no longer need, or request a higher limit of '{quota}' ({quota_code}) in Service Quotas.</source>
        <translation>请终止不再需要的实例，或在 Service Quotas 中申请提高“{quota}”（{quota_code}）的上限。</translation>
    </message>
    <message>
        <source>Account '{account}' has reached its spot instance limit in {region}.</source>
        <translation>账号“{account}”在 {region} 的竞价实例数量已达上限。</translation>
    </message>
    <message>
        <source>Cancel unused spot requests, or request a higher '{quota}' ({quota_code}) in Service Quotas.</source>
        <translation>请取消不用的竞价请求，或在 Service Quotas 中申请提高“{quota}”（{quota_code}）。</translation>
    </message>
    <message>
        <source>Your maximum spot price {max_price} USD/h is below the current spot price {spot_price} USD/h for {instance_type} in {zone}.</source>
        <translation>你的竞价最高价 {max_price} USD/小时 低于 {instance_type} 在 {zone} 的当前竞价 {spot_price} USD/小时。</translation>
    </message>
    <message>
        <source>Raise the maximum price (--max-price) to at least {spot_price}, or launch on-demand.</source>
        <translation>请把最高价（--max-price）提高到至少 {spot_price}，或改用按需实例。</translation>
    </message>
    <message>
        <source>Check the instance in the instances list; a stop that AWS refuses for good is ended by terminating the instance.</source>
        <translation>请在实例列表中查看该实例；AWS 永久拒绝的停止操作只能通过终止实例来结束。</translation>
    </message>
    <message>
        <source>The spot request of instance {instance_id} does not allow this now: {provider_message}</source>
        <translation>实例 {instance_id} 的竞价请求当前不允许此操作：{provider_message}</translation>
    </message>
    <message>
        <source>Refresh the instance list; a spot instance whose request was cancelled can only be terminated.</source>
        <translation>请刷新实例列表；竞价请求已取消的竞价实例只能被终止。</translation>
    </message>
    <message>
        <source>AWS no longer knows the spot request of instance {instance_id}.</source>
        <translation>AWS 已不再保留实例 {instance_id} 的竞价请求。</translation>
    </message>
    <message>
        <source>Refresh the instance list, then retry.</source>
        <translation>请刷新实例列表，然后重试。</translation>
    </message>
    <message>
        <source>Choose an image id (--image), copied from the EC2 console's AMI catalog.</source>
        <translation>请选择一个镜像 ID（--image），可从 EC2 控制台的 AMI 目录中复制。</translation>
    </message>
    <message>
        <source>AWS kept throttling requests of account '{account}' after several retries.</source>
        <translation>AWS 在多次重试后仍在限制账号“{account}”的请求频率。</translation>
    </message>
    <message>
        <source>Wait a minute and retry; other tools using this account may be sending many requests.</source>
        <translation>请等一分钟后重试；可能有其他工具正在用这个账号发送大量请求。</translation>
    </message>
    <message>
        <source>Wait a minute and retry.</source>
        <translation>请等一分钟后重试。</translation>
    </message>
    <message>
        <source>Image {image_id} does not exist in {region}.</source>
        <translation>镜像 {image_id} 在 {region} 不存在。</translation>
    </message>
    <message>
        <source>Leave the image empty to use a Deep Learning AMI, or copy an image id from this region's EC2 console.</source>
        <translation>镜像留空即可使用 Deep Learning AMI，或从该区域的 EC2 控制台复制一个镜像 ID。</translation>
    </message>
    <message>
        <source>Instance {instance_id} does not exist on account '{account}' any more.</source>
        <translation>实例 {instance_id} 已不在账号“{account}”中。</translation>
    </message>
    <message>
        <source>Refresh the instance list: it was probably terminated.</source>
        <translation>请刷新实例列表：它很可能已被终止。</translation>
    </message>
    <message>
        <source>Instance {instance_id} cannot do this in its current state.</source>
        <translation>实例 {instance_id} 在当前状态下无法执行此操作。</translation>
    </message>
    <message>
        <source>Wait until it has finished starting or stopping, then retry.</source>
        <translation>请等它完成启动或停止后再重试。</translation>
    </message>
    <message>
        <source>AWS does not allow this for instance {instance_id}: {provider_message}</source>
        <translation>AWS 不允许对实例 {instance_id} 执行此操作：{provider_message}</translation>
    </message>
    <message>
        <source>A launch with this client token but other settings already exists.</source>
        <translation>已存在一个使用相同客户端令牌但设置不同的启动请求。</translation>
    </message>
    <message>
        <source>Start a new launch instead of retrying the old one.</source>
        <translation>请发起一次新的启动，而不是重试旧的那次。</translation>
    </message>
    <message>
        <source>AWS rejected the system disk: {provider_message}</source>
        <translation>AWS 拒绝了系统盘设置：{provider_message}</translation>
    </message>
    <message>
        <source>Choose a larger system disk (at least the image's size) and retry.</source>
        <translation>请选择更大的系统盘（至少与镜像大小相同）后重试。</translation>
    </message>
    <message>
        <source>AWS rejected a value: {provider_message}</source>
        <translation>AWS 拒绝了一个参数值：{provider_message}</translation>
    </message>
    <message>
        <source>Check the instance type, zone and image, then retry.</source>
        <translation>请检查实例类型、可用区和镜像，然后重试。</translation>
    </message>
    <message>
        <source>AWS rejected the combination of settings: {provider_message}</source>
        <translation>AWS 拒绝了这组设置的组合：{provider_message}</translation>
    </message>
    <message>
        <source>AWS does not know instance type {instance_type}.</source>
        <translation>AWS 不认识实例类型 {instance_type}。</translation>
    </message>
    <message>
        <source>Check the spelling (e.g. g5.xlarge) or pick an offer from the table.</source>
        <translation>请检查拼写（例如 g5.xlarge），或从报价表中选择。</translation>
    </message>
    <message>
        <source>The AWS SDK (boto3) is not installed.</source>
        <translation>未安装 AWS SDK（boto3）。</translation>
    </message>
    <message>
        <source>Reinstall LabGPU, or pip install boto3.</source>
        <translation>请重新安装 LabGPU，或执行 pip install boto3。</translation>
    </message>
    <message>
        <source>AWS</source>
        <translation>AWS</translation>
    </message>
    <message>
        <source>AWS bills Linux instances per second, with a 60-second minimum each time an instance starts.</source>
        <translation>AWS 对 Linux 实例按秒计费，每次启动最少计费 60 秒。</translation>
    </message>
    <message>
        <source>Access key ID</source>
        <translation>访问密钥 ID</translation>
    </message>
    <message>
        <source>Secret access key</source>
        <translation>私有访问密钥</translation>
    </message>
    <message>
        <source>Session token (optional)</source>
        <translation>会话令牌（可选）</translation>
    </message>
    <message>
        <source>optional: endpoint_url, e.g. http://127.0.0.1:5000</source>
        <translation>可选：endpoint_url，例如 http://127.0.0.1:5000</translation>
    </message>
    <message>
        <source>Stopped AWS instances still bill for their EBS disks.</source>
        <translation>已停止的 AWS 实例仍会为其 EBS 磁盘计费。</translation>
    </message>
    <message>
        <source>AWS profiles from ~/.aws/credentials and AWS_* variables</source>
        <translation>从 ~/.aws/credentials 和 AWS_* 环境变量导入 AWS 配置</translation>
    </message>
    <message>
        <source>AWS profile {name}</source>
        <translation>AWS 配置 {name}</translation>
    </message>
    <message>
        <source>Account '{account}' has no default VPC in {region}.</source>
        <translation>账号“{account}”在 {region} 没有默认 VPC。</translation>
    </message>
    <message>
        <source>Create one (VPC console → Actions → Create default VPC), then retry.</source>
        <translation>请创建一个（VPC 控制台 → 操作 → 创建默认 VPC），然后重试。</translation>
    </message>
    <message>
        <source>No Deep Learning AMI and no Ubuntu 22.04 image was found in {region}.</source>
        <translation>在 {region} 既没有找到 Deep Learning AMI，也没有找到 Ubuntu 22.04 镜像。</translation>
    </message>
    <message>
        <source>Registering SSH key {name}…</source>
        <translation>正在登记 SSH 密钥 {name}…</translation>
    </message>
    <message>
        <source>Opening SSH (port 22) to {cidr} only…</source>
        <translation>正在只对 {cidr} 开放 SSH（22 端口）…</translation>
    </message>
    <message>
        <source>Using the GPU image {name} ({id}) with CUDA and PyTorch.</source>
        <translation>使用自带 CUDA 和 PyTorch 的 GPU 镜像 {name}（{id}）。</translation>
    </message>
    <message>
        <source>No Deep Learning AMI found: using plain Ubuntu 22.04 {name} ({id}); install CUDA and PyTorch yourself.</source>
        <translation>未找到 Deep Learning AMI：改用普通 Ubuntu 22.04 镜像 {name}（{id}）；CUDA 和 PyTorch 需要自行安装。</translation>
    </message>
    <message>
        <source>Using image {id}.</source>
        <translation>使用镜像 {id}。</translation>
    </message>
    <message>
        <source>The image needs a system disk of at least {size} GB: using {size} GB instead of {asked} GB.</source>
        <translation>该镜像需要至少 {size} GB 的系统盘：改用 {size} GB，而不是 {asked} GB。</translation>
    </message>
    <message>
        <source>Requesting {type} ({market}) in {zone}…</source>
        <translation>正在 {zone} 申请 {type}（{market}）…</translation>
    </message>
    <message>
        <source>spot</source>
        <translation>竞价</translation>
    </message>
    <message>
        <source>on-demand</source>
        <translation>按需</translation>
    </message>
    <message>
        <source>AWS spot: a persistent spot request that stops (not terminates) when AWS reclaims the capacity. Stop and the guards stop it; stopped, only its EBS disk bills. Terminate cancels the spot request first, so it never comes back by itself.</source>
        <translation>AWS 竞价实例：以持久型竞价请求启动，AWS 回收容量时实例会停止（而非终止）。“停止”按钮和守护规则会停止它；停止后只有 EBS 磁盘计费。“终止”会先取消竞价请求，因此它不会自行重新启动。</translation>
    </message>
    <message>
        <source>EBS disks still bill while stopped; terminate the instance to stop all charges.</source>
        <translation>停止后 EBS 磁盘仍会计费；终止实例才会停止全部计费。</translation>
    </message>
    <message>
        <source>AWS cannot stop a one-time spot instance</source>
        <translation>AWS 无法停止一次性竞价实例</translation>
    </message>
    <message>
        <source>AWS cannot stop a spot instance whose spot request was cancelled</source>
        <translation>AWS 无法停止竞价请求已被取消的竞价实例</translation>
    </message>
    <message>
        <source>AWS refused to stop this spot instance</source>
        <translation>AWS 拒绝停止此竞价实例</translation>
    </message>
    <message>
        <source>{instance_id} cannot be stopped: {reason_text}.</source>
        <translation>{instance_id} 无法停止：{reason_text}。</translation>
    </message>
    <message>
        <source>Only terminating ends its bill, and that deletes its disk: pull what you need first, then terminate it (labgpu terminate {instance_id}, or Terminate on the instances page).</source>
        <translation>只有终止才能结束它的计费，而终止会删除它的磁盘：请先拉取所需数据，再终止它（labgpu terminate {instance_id}，或在实例页面点击“终止”）。</translation>
    </message>
    <message>
        <source>The launch may have gone through: 'labgpu ls' (or the instances page) shows it within a minute. To retry safely, repeat it with --client-token {token} (the retry button does this): the same token never makes a second instance.</source>
        <translation>启动可能已经成功：'labgpu ls'（或实例页面）在一分钟内就会显示它。要安全地重试，请加上 --client-token {token} 重复这次启动（“重试”按钮就是这样做的）：同一个令牌绝不会创建第二台实例。</translation>
    </message>
    <message>
        <source>{why} LabGPU kept to {zone} because you chose it: leave the zone empty (Any zone, or no --zone) to let it try the region's other zones.</source>
        <translation>{why} 因为你选择了 {zone}，LabGPU 只在这个可用区尝试：把可用区留空（“任意可用区”，或不加 --zone），LabGPU 会尝试该地域的其他可用区。</translation>
    </message>
    <message>
        <source>No cloud account is set up, so no live prices can be fetched.</source>
        <translation>还没有设置云账号，无法获取实时价格。</translation>
    </message>
    <message>
        <source>Add one with 'labgpu accounts add {providers} NAME --region R'.</source>
        <translation>请用 'labgpu accounts add {providers} NAME --region R' 添加一个账号。</translation>
    </message>
    <message>
        <source>No instance type was given.</source>
        <translation>未指定实例类型。</translation>
    </message>
    <message>
        <source>Pass --type, e.g. g5.xlarge.</source>
        <translation>请通过 --type 指定，例如 g5.xlarge。</translation>
    </message>
    <message>
        <source>SSH key for this launch: {path} ({type}, {fingerprint}).</source>
        <translation>本次启动使用的 SSH 密钥：{path}（{type}，{fingerprint}）。</translation>
    </message>
    <message>
        <source>LabGPU does not know the on-demand price of {type}, so it cannot set the default spot maximum.</source>
        <translation>LabGPU 不知道 {type} 的按需价格，因此无法设置默认的竞价最高价。</translation>
    </message>
    <message>
        <source>Refresh prices with this account, or set a maximum price (--max-price).</source>
        <translation>请用这个账号刷新价格，或自行设置最高价（--max-price）。</translation>
    </message>
    <message>
        <source>Spot maximum {price} per hour = {pct} % of on-demand ({source}).</source>
        <translation>竞价最高价 {price}/小时 = 按需价格的 {pct} %（{source}）。</translation>
    </message>
    <message>
        <source>The maximum price must be more than 0.</source>
        <translation>最高价必须大于 0。</translation>
    </message>
    <message>
        <source>Pass --max-price in the provider's currency per hour.</source>
        <translation>请用 --max-price 指定每小时的最高价（按云厂商的计价货币）。</translation>
    </message>
    <message>
        <source>This launch already went through: {id}.</source>
        <translation>这次启动已经成功：{id}。</translation>
    </message>
    <message>
        <source>{zone}: {reason} Trying {next}…</source>
        <translation>{zone}：{reason} 正在尝试 {next}…</translation>
    </message>
    <message>
        <source>Waiting for {id} to be running…</source>
        <translation>正在等待 {id} 进入运行状态…</translation>
    </message>
    <message>
        <source>{id} was launched, but its state could not be checked; it is in the instances list and will be refreshed there.</source>
        <translation>{id} 已启动，但暂时无法查询其状态；它已在实例列表中，稍后会在那里刷新。</translation>
    </message>
    <message>
        <source>Instance {id} stopped right after launch ({state}).</source>
        <translation>实例 {id} 启动后立即停止了（{state}）。</translation>
    </message>
    <message>
        <source>Check the cloud console for the reason (spot capacity, image), then launch again.</source>
        <translation>请在云控制台查看原因（竞价容量、镜像），然后重新启动。</translation>
    </message>
    <message>
        <source>LabGPU knows no instance {id}.</source>
        <translation>LabGPU 不认识实例 {id}。</translation>
    </message>
    <message>
        <source>Run 'labgpu ls' to refresh the list, then use an id from it.</source>
        <translation>请运行 'labgpu ls' 刷新列表，然后使用列表中的 ID。</translation>
    </message>
    <message>
        <source>Instance {id} has no address yet.</source>
        <translation>实例 {id} 还没有地址。</translation>
    </message>
    <message>
        <source>Wait until it is running, then refresh.</source>
        <translation>请等它进入运行状态后再刷新。</translation>
    </message>
    <message>
        <source>{provider_name} refused the request ({error_code}): {provider_message}</source>
        <translation>{provider_name} 拒绝了请求（{error_code}）：{provider_message}</translation>
    </message>
    <message>
        <source>Look up {error_code} in the provider's documentation; quote request id {rid} if you contact support.</source>
        <translation>请在云厂商文档中查阅 {error_code}；联系客服时请提供请求 ID {rid}。</translation>
    </message>
    <message>
        <source>{provider_name} could not be reached at {endpoint} ({reason}).</source>
        <translation>无法连接 {provider_name}：{endpoint}（{reason}）。</translation>
    </message>
    <message>
        <source>Check your internet connection, proxy or the account's endpoint, then retry; 'labgpu ls' shows whether a launch went through.</source>
        <translation>请检查网络连接、代理或账号的接入点，然后重试；'labgpu ls' 可以查看启动是否已经成功。</translation>
    </message>
    <message>
        <source>{provider} imports only {types} keys, and LabGPU makes none of those.</source>
        <translation>{provider} 只导入 {types} 密钥，而 LabGPU 不生成这些类型的密钥。</translation>
    </message>
    <message>
        <source>Choose an existing key of one of those types in the SSH key field.</source>
        <translation>请在 SSH 密钥栏中选择一把这些类型之一的已有密钥。</translation>
    </message>
    <message>
        <source>LabGPU cannot read the public half of {path}.</source>
        <translation>LabGPU 无法读取 {path} 的公钥部分。</translation>
    </message>
    <message>
        <source>Put the public key next to it as {path}.pub (ssh-keygen -y -f KEY &gt; KEY.pub).</source>
        <translation>请把公钥以 {path}.pub 的名字放在它旁边（ssh-keygen -y -f KEY &gt; KEY.pub）。</translation>
    </message>
    <message>
        <source>{path} is not an SSH public key.</source>
        <translation>{path} 不是 SSH 公钥。</translation>
    </message>
    <message>
        <source>Choose an ed25519 or RSA key made by ssh-keygen.</source>
        <translation>请选择用 ssh-keygen 生成的 ed25519 或 RSA 密钥。</translation>
    </message>
    <message>
        <source>{provider} imports {types} keys only, and {path} is a key of type {kind}.</source>
        <translation>{provider} 只导入 {types} 密钥，而 {path} 是 {kind} 类型的密钥。</translation>
    </message>
    <message>
        <source>Choose a key of type {types}, or leave the SSH key field empty to use LabGPU's own {own} key.</source>
        <translation>请选择一把 {types} 类型的密钥，或将 SSH 密钥栏留空以使用 LabGPU 自己的 {own} 密钥。</translation>
    </message>
    <message>
        <source>Choose a key of type {types}.</source>
        <translation>请选择一把 {types} 类型的密钥。</translation>
    </message>
    <message>
        <source>LabGPU could not find your public IP address ({reason}), so it will not open SSH to the world.</source>
        <translation>LabGPU 无法获取你的公网 IP 地址（{reason}），因此不会对整个互联网开放 SSH。</translation>
    </message>
    <message>
        <source>Enter the address or VPN range allowed to connect (on the command line: --ssh-from 203.0.113.7/32), or check your internet connection.</source>
        <translation>请输入允许连接的地址或 VPN 网段（命令行中为 --ssh-from 203.0.113.7/32），或检查网络连接。</translation>
    </message>
    <message>
        <source>'{cidr}' is not an address or CIDR range.</source>
        <translation>“{cidr}”不是有效的地址或 CIDR 网段。</translation>
    </message>
    <message>
        <source>Use a form such as 203.0.113.7/32 or 10.8.0.0/24.</source>
        <translation>请使用 203.0.113.7/32 或 10.8.0.0/24 这样的格式。</translation>
    </message>
    <message>
        <source>LabGPU will not open SSH to {cidr}: that is (almost) the whole internet.</source>
        <translation>LabGPU 不会对 {cidr} 开放 SSH：这（几乎）等于整个互联网。</translation>
    </message>
    <message>
        <source>Give your own address (/32) or your VPN's range instead.</source>
        <translation>请改为填写你自己的地址（/32）或 VPN 的网段。</translation>
    </message>
    <message>
        <source>Two lines are needed on stdin: {first}, then {second}.</source>
        <translation>标准输入需要两行：先是 {first}，然后是 {second}。</translation>
    </message>
    <message>
        <source>Pipe them in one per line, e.g. from your password manager.</source>
        <translation>请每行一个地通过管道传入，例如从密码管理器中读取。</translation>
    </message>
    <message>
        <source>--test checks an account by asking for its instances; {cloud} accounts are for object storage only.</source>
        <translation>--test 通过查询实例来检查账号；{cloud}账号只用于对象存储。</translation>
    </message>
    <message>
        <source>Add it without --test, then list its buckets: labgpu buckets ls {name}</source>
        <translation>不加 --test 添加它，然后列出它的存储桶：labgpu buckets ls {name}</translation>
    </message>
    <message>
        <source>--account and --type do not apply to --public.</source>
        <translation>--account 和 --type 不适用于 --public。</translation>
    </message>
    <message>
        <source>Public prices need no account: leave them out, or drop --public to refresh with an account.</source>
        <translation>公开价格无需账号：请去掉这两个选项，或去掉 --public 以用账号刷新。</translation>
    </message>
    <message>
        <source>--azure-endpoint only applies to public prices.</source>
        <translation>--azure-endpoint 只适用于公开价格。</translation>
    </message>
    <message>
        <source>Add --public, or leave --azure-endpoint out.</source>
        <translation>加上 --public，或去掉 --azure-endpoint。</translation>
    </message>
    <message>
        <source>--max-price only applies to spot launches.</source>
        <translation>--max-price 只适用于竞价实例。</translation>
    </message>
    <message>
        <source>Add --spot, or leave --max-price out.</source>
        <translation>请加上 --spot，或去掉 --max-price。</translation>
    </message>
    <message>
        <source>SSH key registered with {provider}: {path} ({type}, {fingerprint}{own}).</source>
        <translation>已在 {provider} 注册的 SSH 密钥：{path}（{type}，{fingerprint}{own}）。</translation>
    </message>
    <message>
        <source>, LabGPU's own key</source>
        <translation>，LabGPU 自己的密钥</translation>
    </message>
    <message>
        <source>No guards: {id} runs until you stop it.</source>
        <translation>没有守护规则：{id} 会一直运行，直到你停止它。</translation>
    </message>
    <message>
        <source>Guards of {id}: {guards}</source>
        <translation>{id} 的守护规则：{guards}</translation>
    </message>
    <message>
        <source>'{name}' cannot be an account name.</source>
        <translation>“{name}”不能用作账号名。</translation>
    </message>
    <message>
        <source>Use letters, digits, '.', '_' or '-' (at most 63).</source>
        <translation>请使用字母、数字、“.”、“_”或“-”（最多 63 个字符）。</translation>
    </message>
    <message>
        <source>LabGPU cannot manage {provider} accounts.</source>
        <translation>LabGPU 无法管理 {provider} 账号。</translation>
    </message>
    <message>
        <source>Choose one of: {choices}.</source>
        <translation>请从以下选择：{choices}。</translation>
    </message>
    <message>
        <source>'{region}' is not a region id.</source>
        <translation>“{region}”不是有效的区域 ID。</translation>
    </message>
    <message>
        <source>Use a {cloud} region id such as {example}.</source>
        <translation>请使用{cloud}的地域 ID，例如 {example}。</translation>
    </message>
    <message>
        <source>'{endpoint}' is not an endpoint URL.</source>
        <translation>“{endpoint}”不是有效的接入点 URL。</translation>
    </message>
    <message>
        <source>Use a URL such as http://127.0.0.1:9000 or a host name.</source>
        <translation>请使用 http://127.0.0.1:9000 这样的 URL 或主机名。</translation>
    </message>
    <message>
        <source>'{protocol}' is not a protocol LabGPU can use.</source>
        <translation>LabGPU 无法使用协议“{protocol}”。</translation>
    </message>
    <message>
        <source>Use https (or http for a local test server).</source>
        <translation>请使用 https（本地测试服务器可用 http）。</translation>
    </message>
    <message>
        <source>'{name}' is a {cloud} account for object storage only: LabGPU cannot launch, list or price instances with it.</source>
        <translation>“{name}”是只用于对象存储的{cloud}账号：LabGPU 不能用它创建、列出实例或查询实例价格。</translation>
    </message>
    <message>
        <source>Use it for bucket syncs (--account {name}); to rent a GPU, add an account of {launchable}.</source>
        <translation>请在存储桶同步中使用它（--account {name}）；要租用 GPU，请添加 {launchable} 的账号。</translation>
    </message>
    <message>
        <source>Both the key id and the secret are needed.</source>
        <translation>密钥 ID 和密钥都需要填写。</translation>
    </message>
    <message>
        <source>Copy them from the cloud console's access key page.</source>
        <translation>请从云控制台的访问密钥页面复制。</translation>
    </message>
    <message>
        <source>The key id or secret contains spaces.</source>
        <translation>密钥 ID 或密钥中含有空格。</translation>
    </message>
    <message>
        <source>Paste the values again without spaces or line breaks.</source>
        <translation>请重新粘贴，不要带空格或换行。</translation>
    </message>
    <message>
        <source>There is no account named '{name}'.</source>
        <translation>没有名为“{name}”的账号。</translation>
    </message>
    <message>
        <source>List them with 'labgpu accounts ls' or add one.</source>
        <translation>用 'labgpu accounts ls' 查看账号列表，或添加一个。</translation>
    </message>
    <message>
        <source>The keyring has no credentials for account '{name}'.</source>
        <translation>系统密钥环中没有账号“{name}”的凭证。</translation>
    </message>
    <message>
        <source>Enter the key id and secret again (remove and add the account).</source>
        <translation>请重新输入密钥 ID 和密钥（删除账号后重新添加）。</translation>
    </message>
    <message>
        <source>An account named '{name}' already exists.</source>
        <translation>名为“{name}”的账号已存在。</translation>
    </message>
    <message>
        <source>Choose another name, or remove the old account first.</source>
        <translation>请换一个名字，或先删除旧账号。</translation>
    </message>
    <message>
        <source>The endpoint {endpoint} is not an http(s) URL or host name.</source>
        <translation>接入点 {endpoint} 不是 http(s) 地址或主机名。</translation>
    </message>
    <message>
        <source>{instance_id} is still {state} after {seconds} s.</source>
        <translation>{seconds} 秒后 {instance_id} 仍处于 {state}。</translation>
    </message>
    <message>
        <source>Reload the instances page in a minute to see where it stands.</source>
        <translation>请一分钟后刷新“实例”页查看其状态。</translation>
    </message>
    <message>
        <source>Edit the account and pick one of: {regions}.</source>
        <translation>编辑该账户，从以下地域中选择一个：{regions}。</translation>
    </message>
    <message>
        <source>{path} cannot be read ({reason}).</source>
        <translation>无法读取 {path}（{reason}）。</translation>
    </message>
    <message>
        <source>Fix the file's syntax (see 'aws configure') and retry.</source>
        <translation>请修正该文件的语法（参见 'aws configure'）后重试。</translation>
    </message>
    <message>
        <source>No AWS profile '{profile}' with keys in {path}.</source>
        <translation>{path} 中没有带密钥的 AWS 配置“{profile}”。</translation>
    </message>
    <message>
        <source>Run 'aws configure --profile {profile}' or add the account by hand.</source>
        <translation>请运行 'aws configure --profile {profile}'，或手动添加账号。</translation>
    </message>
    <message>
        <source>the EC2 bulk offer file is gigabytes per region and the query API needs signed requests: refresh with an AWS account</source>
        <translation>EC2 批量价格文件每个区域有数 GB，查询 API 需要签名请求：请用 AWS 账号刷新</translation>
    </message>
    <message>
        <source>The Azure prices address {url} is not an http(s) URL.</source>
        <translation>Azure 价格地址 {url} 不是 http(s) 网址。</translation>
    </message>
    <message>
        <source>Use e.g. https://prices.azure.com/api/retail/prices, or clear the setting to use that default.</source>
        <translation>请使用例如 https://prices.azure.com/api/retail/prices，或清空该设置以使用这个默认地址。</translation>
    </message>
    <message>
        <source>Azure's public price list could not be read from {endpoint}: {reason}. The bundled prices are kept.</source>
        <translation>无法从 {endpoint} 读取 Azure 的公开价格表：{reason}。已保留内置价格。</translation>
    </message>
    <message>
        <source>Check your internet connection or proxy and try again; to use a mirror, set its address (labgpu prices refresh --public --azure-endpoint URL).</source>
        <translation>请检查网络连接或代理后重试；如要使用镜像，请设置其地址（labgpu prices refresh --public --azure-endpoint URL）。</translation>
    </message>
    <message>
        <source>{cloud} does not publish a spot price history LabGPU can read.</source>
        <translation>{cloud} 没有提供 LabGPU 可读取的竞价价格历史。</translation>
    </message>
    <message>
        <source>Compare the current spot price in the offers table instead.</source>
        <translation>请改为在报价表中比较当前的竞价价格。</translation>
    </message>
    <message>
        <source>No {cloud} account is set up, so its spot price history cannot be read.</source>
        <translation>尚未设置 {cloud} 账号，因此无法读取其竞价价格历史。</translation>
    </message>
    <message>
        <source>Add an account for {cloud} on the Accounts page, then try again.</source>
        <translation>请在“云账号”页添加一个 {cloud} 账号，然后重试。</translation>
    </message>
    <message>
        <source>This computer's clock is {minutes} minutes ahead of {cloud}'s (measured {when})</source>
        <translation>这台电脑的时钟比 {cloud} 的快 {minutes} 分钟（测于 {when}）</translation>
    </message>
    <message>
        <source>This computer's clock is {minutes} minutes behind {cloud}'s (measured {when})</source>
        <translation>这台电脑的时钟比 {cloud} 的慢 {minutes} 分钟（测于 {when}）</translation>
    </message>
    <message>
        <source>Turn on automatic date and time (network time) in the system settings: a clock this far off makes the clouds refuse requests, stops included. LabGPU counts running time and cost on the cloud's clock meanwhile.</source>
        <translation>请在系统设置中打开“自动设置日期和时间”（网络时间）：时钟偏差这么大时，云平台会拒绝请求，包括停止实例。在此期间，LabGPU 按云平台的时钟计算运行时间和费用。</translation>
    </message>
    <message>
        <source>Saving the guards of {id}…</source>
        <translation>正在保存 {id} 的守护规则…</translation>
    </message>
    <message>
        <source>Guards of {id} saved.</source>
        <translation>已保存 {id} 的守护规则。</translation>
    </message>
    <message>
        <source>Waiting for {id} to answer over SSH to install the watchdog…</source>
        <translation>正在等待 {id} 通过 SSH 响应，以安装看门狗…</translation>
    </message>
    <message>
        <source>{id} did not answer over SSH within {seconds} s ({why})</source>
        <translation>{id} 在 {seconds} 秒内没有通过 SSH 响应（{why}）</translation>
    </message>
    <message>
        <source>{id} is not running with an address yet</source>
        <translation>{id} 还没有以带地址的状态运行</translation>
    </message>
    <message>
        <source>--no-guard cannot go with guard options ({options}).</source>
        <translation>--no-guard 不能与守护选项（{options}）一起使用。</translation>
    </message>
    <message>
        <source>Leave out --no-guard, or the guard options.</source>
        <translation>去掉 --no-guard，或者去掉守护选项。</translation>
    </message>
    <message>
        <source>{cloud} has no maximum runtime LabGPU can hand to it</source>
        <translation>{cloud} 没有可供 LabGPU 设置的最长运行时间</translation>
    </message>
    <message>
        <source>{cloud} takes a time at least {minutes} minutes ahead; {hours} h is sooner</source>
        <translation>{cloud} 只接受至少 {minutes} 分钟之后的时间；{hours} 小时太早</translation>
    </message>
    <message>
        <source>{cloud} takes a time at most {years} years ahead</source>
        <translation>{cloud} 只接受最多 {years} 年之内的时间</translation>
    </message>
    <message>
        <source>{cloud} refused it ({code}): {detail}</source>
        <translation>{cloud} 拒绝了它（{code}）：{detail}</translation>
    </message>
    <message>
        <source>{cloud} does not hold it after the launch</source>
        <translation>启动后 {cloud} 上没有这项设置</translation>
    </message>
    <message>
        <source>it could not be read back from {cloud}: {detail}</source>
        <translation>无法从 {cloud} 读回：{detail}</translation>
    </message>
    <message>
        <source>terminate at {time}</source>
        <translation>于 {time} 终止</translation>
    </message>
    <message>
        <source>release at {time}</source>
        <translation>于 {time} 释放</translation>
    </message>
    <message>
        <source>stop at {time}</source>
        <translation>于 {time} 停止</translation>
    </message>
    <message>
        <source>Maximum runtime enforced by the cloud: {what}.</source>
        <translation>最长运行时间由云端强制：{what}。</translation>
    </message>
    <message>
        <source>Maximum runtime not enforced by the cloud: {why}.</source>
        <translation>最长运行时间未由云端强制：{why}。</translation>
    </message>
    <message>
        <source>The wait would end before it starts.</source>
        <translation>这个等待还没开始就会结束。</translation>
    </message>
    <message>
        <source>Give a duration, e.g. --until 6h or --until 30m.</source>
        <translation>给一个时长，例如 --until 6h 或 --until 30m。</translation>
    </message>
    <message>
        <source>The price cap must be more than 0.</source>
        <translation>价格上限必须大于 0。</translation>
    </message>
    <message>
        <source>Give the most you would pay per hour, e.g. --max-price 8.</source>
        <translation>给出你每小时最多愿意付的价格，例如 --max-price 8。</translation>
    </message>
    <message>
        <source>Attempt {n}: still sold out ({why}). Next try at {at}.</source>
        <translation>第 {n} 次尝试：仍然售罄（{why}）。下次尝试在 {at}。</translation>
    </message>
    <message>
        <source>{type} landed as {id} in {zone} after {n} attempts.</source>
        <translation>{type} 抢到了：{id}，在 {zone}，共尝试 {n} 次。</translation>
    </message>
    <message>
        <source>Gave up waiting for {type}: the deadline passed after {n} attempts and it stayed sold out.</source>
        <translation>已放弃等待 {type}：尝试 {n} 次后到了截止时间，它一直售罄。</translation>
    </message>
    <message>
        <source>Gave up waiting for {type}: its price {price} per hour is over your cap of {cap}.</source>
        <translation>已放弃等待 {type}：它每小时 {price} 的价格超过了你的上限 {cap}。</translation>
    </message>
    <message>
        <source>Gave up waiting for {type}: {why}</source>
        <translation>已放弃等待 {type}：{why}</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>There is no waiting launch {id}.</source>
        <translation>没有正在等待的启动 {id}。</translation>
    </message>
    <message>
        <source>See the waits with 'labgpu waits'.</source>
        <translation>用 'labgpu waits' 查看等待。</translation>
    </message>
    <message>
        <source>You stopped waiting for {type}; nothing was launched.</source>
        <translation>你停止了等待 {type}；没有启动任何实例。</translation>
    </message>
    <message>
        <source>{text!r} is not a duration.</source>
        <translation>{text!r} 不是一个时长。</translation>
    </message>
    <message>
        <source>Write it as a number and a unit, e.g. 6h, 90m, 1h30m or 2d.</source>
        <translation>写成数字加单位，例如 6h、90m、1h30m 或 2d。</translation>
    </message>
    <message>
        <source>LabGPU cannot launch on {cloud}.</source>
        <translation>LabGPU 不能在 {cloud} 上启动。</translation>
    </message>
    <message>
        <source>Use one of: {clouds}.</source>
        <translation>请用其中之一：{clouds}。</translation>
    </message>
    <message>
        <source>Waiting for {type} until {until} (wait {id}): LabGPU keeps trying while it is sold out. Ctrl+C leaves the wait to the watcher; 'labgpu waits cancel {id}' ends it.</source>
        <translation>正在蹲 {type}，直到 {until}（等待 {id}）：售罄期间 LabGPU 会一直重试。按 Ctrl+C 会把等待交给监视器；用 'labgpu waits cancel {id}' 结束它。</translation>
    </message>
    <message>
        <source>Left the wait {id} to the watcher (the window, the tray or 'labgpu watch'); 'labgpu waits cancel {id}' ends it.</source>
        <translation>已把等待 {id} 交给监视器（窗口、托盘或 'labgpu watch'）；用 'labgpu waits cancel {id}' 结束它。</translation>
    </message>
    <message>
        <source>Try again later, with a later --until, more --zones or --clouds, or a higher --max-price.</source>
        <translation>稍后再试：用更晚的 --until、更多的 --zones 或 --clouds，或更高的 --max-price。</translation>
    </message>
</context>
</TS>