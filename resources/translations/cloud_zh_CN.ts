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
        <source>None of your accounts' clouds publishes prices LabGPU can read ({clouds}): the offers keep the bundled catalog's prices.</source>
        <translation>你的账号所在的云都没有 LabGPU 能读取的价格接口（{clouds}）：报价表沿用内置目录的价格。</translation>
    </message>
    <message>
        <source>The catalog's date is shown beside each price.</source>
        <translation>每个价格旁都标有目录的日期。</translation>
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
        <source>cloud accounts (secrets kept in the OS keyring)</source>
        <translation>云账号（密钥保存在系统密钥环中）</translation>
    </message>
    <message>
        <source>add an account; reads key id and secret from stdin or prompts</source>
        <translation>添加账号；从标准输入或提示读取密钥 ID 和密钥</translation>
    </message>
    <message>
        <source>custom endpoint URL, e.g. http://127.0.0.1:9000</source>
        <translation>自定义端点 URL，例如 http://127.0.0.1:9000</translation>
    </message>
    <message>
        <source>providers that take one (e.g. tencent): protocol for the endpoint (default: from the URL, else https)</source>
        <translation>支持此项的云服务商（如 tencent）：端点的协议（默认：取自 URL，否则 https）</translation>
    </message>
    <message>
        <source>test the connection after adding</source>
        <translation>添加后测试连接</translation>
    </message>
    <message>
        <source>list accounts (key ids masked)</source>
        <translation>列出账号（密钥 ID 已遮盖）</translation>
    </message>
    <message>
        <source>check an account's keys with the provider</source>
        <translation>向云服务商验证账号的密钥</translation>
    </message>
    <message>
        <source>remove an account and its keyring entries</source>
        <translation>删除账号及其密钥环条目</translation>
    </message>
    <message>
        <source>import keys already on this computer as accounts</source>
        <translation>把这台电脑上已有的密钥导入为账号</translation>
    </message>
    <message>
        <source>same as 'accounts import {id}'</source>
        <translation>同 'accounts import {id}'</translation>
    </message>
    <message>
        <source>live prices from the providers</source>
        <translation>来自云服务商的实时价格</translation>
    </message>
    <message>
        <source>fetch live prices with an account (all accounts by default), or --public: public price lists that need no account (Azure)</source>
        <translation>用账号获取实时价格（默认所有账号），或 --public：无需账号的公开价格表（Azure）</translation>
    </message>
    <message>
        <source>fetch the public price lists that need no account (Azure Retail Prices API)</source>
        <translation>获取无需账号的公开价格表（Azure Retail Prices API）</translation>
    </message>
    <message>
        <source>with --public: Azure Retail Prices API address, e.g. a mirror (default: the azure_prices_endpoint setting, else https://prices.azure.com/api/retail/prices)</source>
        <translation>配合 --public：Azure Retail Prices API 地址，例如镜像（默认：azure_prices_endpoint 设置，否则 https://prices.azure.com/api/retail/prices）</translation>
    </message>
    <message>
        <source>instance type (repeatable)</source>
        <translation>实例类型（可重复）</translation>
    </message>
    <message>
        <source>launch a GPU instance</source>
        <translation>启动 GPU 实例</translation>
    </message>
    <message>
        <source>account name (labgpu accounts ls)</source>
        <translation>账号名称（labgpu accounts ls）</translation>
    </message>
    <message>
        <source>the cloud</source>
        <translation>云平台</translation>
    </message>
    <message>
        <source>an account name of your choice, e.g. lab-aws</source>
        <translation>自己起的账号名称，例如 lab-aws</translation>
    </message>
    <message>
        <source>the account's region, e.g. ap-guangzhou or us-east-1</source>
        <translation>账号的地域，例如 ap-guangzhou 或 us-east-1</translation>
    </message>
    <message>
        <source>{cloud}: {setting}</source>
        <translation>{cloud}：{setting}</translation>
    </message>
    <message>
        <source>print JSON</source>
        <translation>输出 JSON</translation>
    </message>
    <message>
        <source>only this account (default: all)</source>
        <translation>只用这个账号（默认：全部）</translation>
    </message>
    <message>
        <source>instance type, e.g. g5.xlarge</source>
        <translation>实例类型，例如 g5.xlarge</translation>
    </message>
    <message>
        <source>zone (default: any; on no capacity the others are tried)</source>
        <translation>可用区（默认：任意；无库存时尝试其他可用区）</translation>
    </message>
    <message>
        <source>region (default: the account's region)</source>
        <translation>地域（默认：账号的地域）</translation>
    </message>
    <message>
        <source>image id (default: a CUDA/PyTorch GPU image, else Ubuntu)</source>
        <translation>镜像 ID（默认：CUDA/PyTorch GPU 镜像，没有则用 Ubuntu）</translation>
    </message>
    <message>
        <source>spot instance (can be reclaimed; much cheaper)</source>
        <translation>竞价实例（可能被回收；便宜很多）</translation>
    </message>
    <message>
        <source>spot maximum per hour in the provider's currency (default: the spot share setting, 80 %% unless changed, × on-demand)</source>
        <translation>每小时竞价上限，按云服务商的币种（默认：设置中的竞价比例，未修改时为 80 %%，× 按量价格）</translation>
    </message>
    <message>
        <source>CIDR allowed to SSH in (default: your public address)</source>
        <translation>允许 SSH 登录的 CIDR（默认：你的公网地址）</translation>
    </message>
    <message>
        <source>existing private key of a type the cloud imports (default: LabGPU's own key: ed25519 for AWS, RSA 4096 for Tencent and Alibaba)</source>
        <translation>云平台可导入类型的现有私钥（默认：LabGPU 自己的密钥：AWS 用 ed25519，腾讯云和阿里云用 RSA 4096）</translation>
    </message>
    <message>
        <source>system disk size (default 100 GB)</source>
        <translation>系统盘大小（默认 100 GB）</translation>
    </message>
    <message>
        <source>instance name tag</source>
        <translation>实例名称标签</translation>
    </message>
    <message>
        <source>retry an earlier launch (same token = same instance)</source>
        <translation>重试之前的启动（相同令牌 = 相同实例）</translation>
    </message>
    <message>
        <source>return once the request is accepted</source>
        <translation>请求被接受后即返回</translation>
    </message>
    <message>
        <source>print the instance as JSON</source>
        <translation>以 JSON 输出实例</translation>
    </message>
    <message>
        <source>print each step on stderr (default only when stderr is a terminal)</source>
        <translation>在标准错误上打印每一步（默认仅当标准错误是终端时）</translation>
    </message>
    <message>
        <source>LabGPU instances on all accounts, reconciled with the clouds (exit 3: an account could not be asked; its instances are shown as last seen)</source>
        <translation>所有账号下的 LabGPU 实例，已与云端核对（退出码 3：某个账号无法查询，其实例按上次所见显示）</translation>
    </message>
    <message>
        <source>show the local ledger without asking the clouds</source>
        <translation>显示本地账本，不查询云端</translation>
    </message>
    <message>
        <source>include terminated instances</source>
        <translation>包括已释放的实例</translation>
    </message>
    <message>
        <source>start an instance</source>
        <translation>启动实例</translation>
    </message>
    <message>
        <source>stop an instance (it can be started again)</source>
        <translation>停止实例（之后可以再启动）</translation>
    </message>
    <message>
        <source>terminate (delete) an instance</source>
        <translation>释放（删除）实例</translation>
    </message>
    <message>
        <source>a LabGPU instance id (labgpu ls)</source>
        <translation>LabGPU 实例 ID（labgpu ls）</translation>
    </message>
    <message>
        <source>the local log of state-changing cloud calls</source>
        <translation>改变状态的云调用的本地日志</translation>
    </message>
    <message>
        <source>export everything as CSV</source>
        <translation>全部导出为 CSV</translation>
    </message>
    <message>
        <source>show the last N entries (default 50)</source>
        <translation>显示最近 N 条（默认 50）</translation>
    </message>
    <message>
        <source>Paste {what}, then an empty line:</source>
        <translation>粘贴{what}，然后输入一个空行：</translation>
    </message>
    <message>
        <source>{second} is needed on stdin.</source>
        <translation>需要从标准输入提供{second}。</translation>
    </message>
    <message>
        <source>Pipe it in, e.g. from your password manager.</source>
        <translation>用管道传入，例如从密码管理器。</translation>
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
        <source>{option} is not a setting of {cloud} accounts.</source>
        <translation>{option} 不是{cloud}账号的设置。</translation>
    </message>
    <message>
        <source>Leave it out; {cloud} accounts take: {options}.</source>
        <translation>去掉它；{cloud}账号可用的设置：{options}。</translation>
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
        <source>added {provider} account {name} ({region}, key {key_id_masked}); secrets are in the keyring</source>
        <translation>已添加 {provider} 账号 {name}（{region}，密钥 {key_id_masked}）；密钥保存在密钥环中</translation>
    </message>
    <message>
        <source>{name} is for {provider} object storage (OBS) only: bucket syncs take it (--account); launch, instances and live prices do not</source>
        <translation>{name} 仅用于 {provider} 对象存储（OBS）：存储桶同步可以使用它（--account）；启动、实例和实时价格不能</translation>
    </message>
    <message>
        <source>connection ok: {connection}</source>
        <translation>连接正常：{connection}</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>PROVIDER</source>
        <translation>云服务商</translation>
    </message>
    <message>
        <source>REGION</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>KEY ID</source>
        <translation>密钥 ID</translation>
    </message>
    <message>
        <source>ENDPOINT</source>
        <translation>端点</translation>
    </message>
    <message>
        <source>connection ok: {who}</source>
        <translation>连接正常：{who}</translation>
    </message>
    <message>
        <source>removed account {name}</source>
        <translation>已删除账号 {name}</translation>
    </message>
    <message>
        <source>nothing to import</source>
        <translation>没有可导入的内容</translation>
    </message>
    <message>
        <source>{status} {name} (from {source})</source>
        <translation>{status} {name}（来自 {source}）</translation>
    </message>
    <message>
        <source>overwrite accounts of the same name</source>
        <translation>覆盖同名账号</translation>
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
        <source>account {name}: {one_line}</source>
        <translation>账号 {name}：{one_line}</translation>
    </message>
    <message>
        <source>ZONE</source>
        <translation>可用区</translation>
    </message>
    <message>
        <source>TYPE</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>ON-DEMAND/H</source>
        <translation>按量/小时</translation>
    </message>
    <message>
        <source>SPOT/H</source>
        <translation>竞价/小时</translation>
    </message>
    <message>
        <source>CUR</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>SOLD OUT</source>
        <translation>售罄</translation>
    </message>
    <message>
        <source>{n} live prices cached</source>
        <translation>已缓存 {n} 条实时价格</translation>
    </message>
    <message>
        <source>[{n}/{total}] Azure {what}</source>
        <translation>[{n}/{total}] Azure {what}</translation>
    </message>
    <message>
        <source>{join}: {reason}; the bundled price is kept</source>
        <translation>{join}：{reason}；保留内置价格</translation>
    </message>
    <message>
        <source>FETCHED (UTC)</source>
        <translation>获取时间（UTC）</translation>
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
        <source>ssh: {ssh_command}</source>
        <translation>ssh：{ssh_command}</translation>
    </message>
    <message>
        <source>Spot recovery: resume with {resume} (change it: labgpu recovery set {id} …)</source>
        <translation>竞价实例恢复：用 {resume} 继续（修改：labgpu recovery set {id} …）</translation>
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
        <source>account {name} not refreshed (shown as last seen): {text}</source>
        <translation>账号 {name} 未刷新（按上次所见显示）：{text}</translation>
    </message>
    <message>
        <source>launch {client_token} ({instance_type}, account {account}, sent {created_at} UTC) is not confirmed yet; it may be billing</source>
        <translation>启动请求 {client_token}（{instance_type}，账号 {account}，发送于 {created_at} UTC）尚未得到确认，可能已在计费</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>ACCOUNT</source>
        <translation>账号</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>MARKET</source>
        <translation>计费方式</translation>
    </message>
    <message>
        <source>PUBLIC IP</source>
        <translation>公网 IP</translation>
    </message>
    <message>
        <source>PRICE/H</source>
        <translation>价格/小时</translation>
    </message>
    <message>
        <source>COST SO FAR</source>
        <translation>累计费用</translation>
    </message>
    <message>
        <source>{n} audit entries written to {csv}</source>
        <translation>已将 {n} 条审计记录写入 {csv}</translation>
    </message>
    <message>
        <source>TIME</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>ACTION</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>RESOURCE</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>RESULT</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>REQUEST ID</source>
        <translation>请求 ID</translation>
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
        <source>A {cloud} account needs its {setting}.</source>
        <translation>{cloud}账号需要填写{setting}。</translation>
    </message>
    <message>
        <source>Fill in {setting} (labgpu accounts add: {option} VALUE).</source>
        <translation>请填写{setting}（labgpu accounts add：{option} 值）。</translation>
    </message>
    <message>
        <source>'{value}' is not a {cloud} {setting}.</source>
        <translation>“{value}”不是有效的{cloud}{setting}。</translation>
    </message>
    <message>
        <source>Copy it from the {cloud} console and paste it again.</source>
        <translation>请从{cloud}控制台复制后重新粘贴。</translation>
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
        <source>The secret is needed.</source>
        <translation>需要填写密钥。</translation>
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
        <source>No SSH public key was given for the new instance.</source>
        <translation>没有为新实例提供 SSH 公钥。</translation>
    </message>
    <message>
        <source>Create a key or choose an existing one in the launch dialog.</source>
        <translation>请在创建实例对话框中创建密钥或选择已有密钥。</translation>
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
        <source>idle when every GPU is under PCT %% (default from Settings: 30)</source>
        <translation>所有 GPU 低于 PCT %% 即视为空闲（默认取自设置：30）</translation>
    </message>
    <message>
        <source>…for N minutes (default from Settings: 10)</source>
        <translation>…持续 N 分钟（默认取自设置：10）</translation>
    </message>
    <message>
        <source>when idle: notify, or stop the instance</source>
        <translation>空闲时：发通知，或停止实例</translation>
    </message>
    <message>
        <source>stop the instance after MIN idle minutes (= --idle-minutes MIN --on-idle stop)</source>
        <translation>空闲 MIN 分钟后停止实例（= --idle-minutes MIN --on-idle stop）</translation>
    </message>
    <message>
        <source>warn at 80 %%, stop at 100 %% of AMOUNT</source>
        <translation>达到 AMOUNT 的 80 %% 时警告，100 %% 时停止</translation>
    </message>
    <message>
        <source>currency of --budget (default: the account's)</source>
        <translation>--budget 的币种（默认：账号的币种）</translation>
    </message>
    <message>
        <source>stop after H hours running; also handed to the cloud, which ends the instance itself at that time where it can (docs/cli.md)</source>
        <translation>运行 H 小时后停止；同时交给云平台，在支持的云上到时由云平台自行结束实例（见 docs/cli.md）</translation>
    </message>
    <message>
        <source>stop after H hours running</source>
        <translation>运行 H 小时后停止</translation>
    </message>
    <message>
        <source>stop when this GPU process has exited</source>
        <translation>此 GPU 进程退出时停止</translation>
    </message>
    <message>
        <source>also install the on-instance watchdog (shuts the machine down after the idle window even when LabGPU is not running; see docs/cli.md for what that does to the bill)</source>
        <translation>同时在实例上安装看门狗（即使 LabGPU 没在运行，空闲超时后也会关机；对账单的影响见 docs/cli.md）</translation>
    </message>
    <message>
        <source>do not pull checkpoints (the host's download sync pairs) before a stop</source>
        <translation>停止前不拉取检查点（主机的下载同步对）</translation>
    </message>
    <message>
        <source>launch without guards (default: the Settings' idle guard, plus the options given)</source>
        <translation>不带守护规则启动（默认：设置中的空闲守护，加上给出的选项）</translation>
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
        <source>keep trying while the type is sold out (蹲卡), until --until; notifies when it lands</source>
        <translation>该类型售罄时持续尝试（蹲卡），直到 --until；抢到时发通知</translation>
    </message>
    <message>
        <source>how long to keep trying, e.g. 6h, 90m, 2d (default 6h)</source>
        <translation>持续尝试多久，例如 6h、90m、2d（默认 6h）</translation>
    </message>
    <message>
        <source>zones to try, comma-separated (default: every zone of the region)</source>
        <translation>要尝试的可用区，逗号分隔（默认：该地域的所有可用区）</translation>
    </message>
    <message>
        <source>other clouds to try too, comma-separated (e.g. tencent,alibaba): each account there with the same GPU model and count</source>
        <translation>同时尝试的其他云，逗号分隔（例如 tencent,alibaba）：使用那里每个账号中相同 GPU 型号和数量的实例</translation>
    </message>
    <message>
        <source>launches waiting for a sold-out GPU (labgpu launch --wait)</source>
        <translation>等待售罄 GPU 的启动（labgpu launch --wait）</translation>
    </message>
    <message>
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>print the waits as JSON</source>
        <translation>以 JSON 输出等待中的启动</translation>
    </message>
    <message>
        <source>list the waits</source>
        <translation>列出等待中的启动</translation>
    </message>
    <message>
        <source>stop a wait (nothing is launched after this)</source>
        <translation>停止等待（此后不会再启动）</translation>
    </message>
    <message>
        <source>wait id (labgpu waits)</source>
        <translation>等待 ID（labgpu waits）</translation>
    </message>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>account</source>
        <translation>账号</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>until</source>
        <translation>截止</translation>
    </message>
    <message>
        <source>instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Try again later, with a later --until, more --zones or --clouds, or a higher --max-price.</source>
        <translation>稍后再试：用更晚的 --until、更多的 --zones 或 --clouds，或更高的 --max-price。</translation>
    </message>
    <message>
        <source>The endpoint {endpoint} is not an https URL.</source>
        <translation>接入点 {endpoint} 不是 https 地址。</translation>
    </message>
</context>
</TS>