<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ChannelDialog</name>
    <message>
        <source>Edit notification channel</source>
        <translation>编辑通知渠道</translation>
    </message>
    <message>
        <source>Add notification channel</source>
        <translation>添加通知渠道</translation>
    </message>
    <message>
        <source>e.g. phone, lab-feishu</source>
        <translation>例如 phone、lab-feishu</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Kind:</source>
        <translation>类型(&amp;K)：</translation>
    </message>
    <message>
        <source>SSL/TLS (port 465)</source>
        <translation>SSL/TLS（端口 465）</translation>
    </message>
    <message>
        <source>STARTTLS (port 587)</source>
        <translation>STARTTLS（端口 587）</translation>
    </message>
    <message>
        <source>the login, if empty</source>
        <translation>留空则用登录名</translation>
    </message>
    <message>
        <source>you@example.com, another@example.com</source>
        <translation>you@example.com, another@example.com</translation>
    </message>
    <message>
        <source>the server's default</source>
        <translation>服务器默认</translation>
    </message>
    <message>
        <source>the service's own address</source>
        <translation>服务自己的地址</translation>
    </message>
    <message>
        <source>the system's certificates</source>
        <translation>系统的证书</translation>
    </message>
    <message>
        <source>Mail &amp;server:</source>
        <translation>邮件服务器(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Port:</source>
        <translation>端口(&amp;P)：</translation>
    </message>
    <message>
        <source>S&amp;ecurity:</source>
        <translation>加密方式(&amp;E)：</translation>
    </message>
    <message>
        <source>T&amp;o:</source>
        <translation>收件人(&amp;O)：</translation>
    </message>
    <message>
        <source>&amp;Login:</source>
        <translation>登录名(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;From:</source>
        <translation>发件人(&amp;F)：</translation>
    </message>
    <message>
        <source>P&amp;riority:</source>
        <translation>优先级(&amp;R)：</translation>
    </message>
    <message>
        <source>Service address:</source>
        <translation>服务地址：</translation>
    </message>
    <message>
        <source>CA file:</source>
        <translation>CA 文件：</translation>
    </message>
    <message>
        <source>Send these events</source>
        <translation>发送这些事件</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>启用</translation>
    </message>
    <message>
        <source>Tokens, passwords, signing secrets and webhook addresses are kept in the system keyring, never in a file. Addresses must use https.</source>
        <translation>令牌、密码、签名密钥和 Webhook 地址都保存在系统密钥环中，绝不写入文件。地址必须使用 https。</translation>
    </message>
    <message>
        <source>Send a &amp;test</source>
        <translation>发送测试(&amp;T)</translation>
    </message>
    <message>
        <source>kept in the keyring; type to replace</source>
        <translation>已保存在密钥环中；输入新值可替换</translation>
    </message>
    <message>
        <source>required</source>
        <translation>必填</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>Sending…</source>
        <translation>正在发送…</translation>
    </message>
    <message>
        <source>Sent: {what}</source>
        <translation>已发送：{what}</translation>
    </message>
    <message>
        <source>Failed: {why}</source>
        <translation>失败：{why}</translation>
    </message>
</context>
<context>
    <name>LabGPU</name>
    <message>
        <source>The CA file {path} could not be read: {why}</source>
        <translation>无法读取 CA 文件 {path}：{why}</translation>
    </message>
    <message>
        <source>Name a PEM file of certificates.</source>
        <translation>请指定一个 PEM 格式的证书文件。</translation>
    </message>
    <message>
        <source>{host} answered HTTP {status}: {detail}</source>
        <translation>{host} 返回 HTTP {status}：{detail}</translation>
    </message>
    <message>
        <source>Check the channel's address and token.</source>
        <translation>请检查该渠道的地址和令牌。</translation>
    </message>
    <message>
        <source>The certificate of {host} could not be verified: {why}</source>
        <translation>无法验证 {host} 的证书：{why}</translation>
    </message>
    <message>
        <source>If the server uses a private CA, name its PEM file as the channel's CA file; LabGPU never skips the check.</source>
        <translation>如果服务器使用私有 CA，请把它的 PEM 文件设为该渠道的 CA 文件；LabGPU 从不跳过证书检查。</translation>
    </message>
    <message>
        <source>Could not reach {host}: {why}</source>
        <translation>无法连接 {host}：{why}</translation>
    </message>
    <message>
        <source>Check the network (Wi-Fi, VPN, proxy) and the address.</source>
        <translation>请检查网络（Wi-Fi、VPN、代理）和地址。</translation>
    </message>
    <message>
        <source>{host} gave an answer that is not JSON.</source>
        <translation>{host} 返回的不是 JSON。</translation>
    </message>
    <message>
        <source>Check the channel's address.</source>
        <translation>请检查该渠道的地址。</translation>
    </message>
    <message>
        <source>{host} refused the notice: {detail}</source>
        <translation>{host} 拒绝了通知：{detail}</translation>
    </message>
    <message>
        <source>Check the channel's token, signing secret and the computer's clock.</source>
        <translation>请检查该渠道的令牌、签名密钥以及本机时钟。</translation>
    </message>
    <message>
        <source>The ServerChan SendKey has characters a SendKey never has.</source>
        <translation>Server酱 SendKey 中含有 SendKey 不会有的字符。</translation>
    </message>
    <message>
        <source>Copy it again from the SendKey page.</source>
        <translation>请从 SendKey 页面重新复制。</translation>
    </message>
    <message>
        <source>The mail server {host} does not offer STARTTLS.</source>
        <translation>邮件服务器 {host} 不支持 STARTTLS。</translation>
    </message>
    <message>
        <source>Choose SSL/TLS (usually port 465) instead; LabGPU never sends mail unencrypted.</source>
        <translation>请改用 SSL/TLS（通常是端口 465）；LabGPU 从不发送未加密的邮件。</translation>
    </message>
    <message>
        <source>The mail server {host} refused the login: {why}</source>
        <translation>邮件服务器 {host} 拒绝登录：{why}</translation>
    </message>
    <message>
        <source>Check the user name and the password (many mail services want an app password / 授权码 here, not the login one).</source>
        <translation>请检查用户名和密码（很多邮箱这里要填授权码/应用专用密码，而不是登录密码）。</translation>
    </message>
    <message>
        <source>The mail server {host} refused the notice: {why}</source>
        <translation>邮件服务器 {host} 拒绝了通知：{why}</translation>
    </message>
    <message>
        <source>Check the sender and recipient addresses.</source>
        <translation>请检查发件人和收件人地址。</translation>
    </message>
    <message>
        <source>The channel name {name!r} is not usable.</source>
        <translation>渠道名称 {name!r} 不可用。</translation>
    </message>
    <message>
        <source>Use up to 40 letters, digits, '.', '_' or '-', starting with a letter or digit.</source>
        <translation>最多 40 个字母、数字、“.”、“_”或“-”，并以字母或数字开头。</translation>
    </message>
    <message>
        <source>This is not a web address.</source>
        <translation>这不是一个网址。</translation>
    </message>
    <message>
        <source>Paste the whole address, starting with https://.</source>
        <translation>请粘贴完整地址，以 https:// 开头。</translation>
    </message>
    <message>
        <source>The address must start with https://.</source>
        <translation>地址必须以 https:// 开头。</translation>
    </message>
    <message>
        <source>LabGPU sends tokens and messages only over encrypted connections (plain http only to 127.0.0.1 or ::1 on this computer).</source>
        <translation>LabGPU 只通过加密连接发送令牌和消息（明文 http 仅允许发往本机的 127.0.0.1 或 ::1）。</translation>
    </message>
    <message>
        <source>Unknown channel kind {kind!r}.</source>
        <translation>未知的渠道类型 {kind!r}。</translation>
    </message>
    <message>
        <source>Choose one of: {kinds}.</source>
        <translation>请从以下选择：{kinds}。</translation>
    </message>
    <message>
        <source>Unknown event {event!r}.</source>
        <translation>未知的事件 {event!r}。</translation>
    </message>
    <message>
        <source>Choose from: {topics}.</source>
        <translation>请从以下选择：{topics}。</translation>
    </message>
    <message>
        <source>The CA file {path} does not exist.</source>
        <translation>CA 文件 {path} 不存在。</translation>
    </message>
    <message>
        <source>Name a PEM file of certificates, or leave it empty to trust the system's.</source>
        <translation>请指定一个 PEM 证书文件，或留空以信任系统证书。</translation>
    </message>
    <message>
        <source>The priority must be 1 to 5 (0: the server's default).</source>
        <translation>优先级必须是 1 到 5（0：服务器默认）。</translation>
    </message>
    <message>
        <source>The mail server name is missing or not a host name.</source>
        <translation>邮件服务器名称缺失或不是主机名。</translation>
    </message>
    <message>
        <source>e.g. smtp.qq.com, smtp.163.com or smtp.gmail.com</source>
        <translation>例如 smtp.qq.com、smtp.163.com 或 smtp.gmail.com</translation>
    </message>
    <message>
        <source>The mail security must be ssl or starttls.</source>
        <translation>邮件加密方式必须是 ssl 或 starttls。</translation>
    </message>
    <message>
        <source>The mail server port must be 1 to 65535.</source>
        <translation>邮件服务器端口必须在 1 到 65535 之间。</translation>
    </message>
    <message>
        <source>A mail channel needs a sender address.</source>
        <translation>邮件渠道需要一个发件人地址。</translation>
    </message>
    <message>
        <source>Give the login (often the address itself) or a From address.</source>
        <translation>请填写登录名（通常就是邮箱地址）或发件人地址。</translation>
    </message>
    <message>
        <source>{address!r} is not a mail address.</source>
        <translation>{address!r} 不是邮箱地址。</translation>
    </message>
    <message>
        <source>Write it as name@example.com.</source>
        <translation>请写成 name@example.com 的形式。</translation>
    </message>
    <message>
        <source>A mail channel needs at least one recipient.</source>
        <translation>邮件渠道至少需要一个收件人。</translation>
    </message>
    <message>
        <source>Give the address that should receive the notices.</source>
        <translation>请填写接收通知的邮箱地址。</translation>
    </message>
    <message>
        <source>The {field} is missing.</source>
        <translation>缺少 {field}。</translation>
    </message>
    <message>
        <source>Paste it from the service's settings page.</source>
        <translation>请从该服务的设置页面粘贴。</translation>
    </message>
    <message>
        <source>The {field} contains spaces or control characters.</source>
        <translation>{field} 中含有空格或控制字符。</translation>
    </message>
    <message>
        <source>Copy it again without spaces or line breaks.</source>
        <translation>请重新复制，不要带空格或换行。</translation>
    </message>
    <message>
        <source>held back: more than {n} notices in an hour on this channel</source>
        <translation>已暂缓：该渠道一小时内的通知超过 {n} 条</translation>
    </message>
    <message>
        <source>this LabGPU cannot send on a {kind} channel</source>
        <translation>此版本的 LabGPU 无法通过 {kind} 渠道发送</translation>
    </message>
    <message>
        <source>There is no notification channel named {name!r}.</source>
        <translation>没有名为 {name!r} 的通知渠道。</translation>
    </message>
    <message>
        <source>See the channels with `labgpu notify ls`, or add one with `labgpu notify add`.</source>
        <translation>用 `labgpu notify ls` 查看渠道，或用 `labgpu notify add` 添加。</translation>
    </message>
    <message>
        <source>Sending failed: {why}</source>
        <translation>发送失败：{why}</translation>
    </message>
    <message>
        <source>notices by mail, WeChat, Feishu, DingTalk, ntfy or webhook</source>
        <translation>通过邮件、微信、飞书、钉钉、ntfy 或 webhook 发送通知</translation>
    </message>
    <message>
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>add (or replace) a channel; secrets are prompted for or read from stdin</source>
        <translation>添加（或替换）通知渠道；密钥通过提示输入或从标准输入读取</translation>
    </message>
    <message>
        <source>Secrets are never arguments. On stdin (--secret-stdin), one line each, in this order — {order}.</source>
        <translation>密钥从不作为命令行参数。通过标准输入（--secret-stdin）每行一个，按此顺序：{order}。</translation>
    </message>
    <message>
        <source>a name for the channel, e.g. phone or lab-feishu</source>
        <translation>渠道名称，例如 phone 或 lab-feishu</translation>
    </message>
    <message>
        <source>the kind of channel</source>
        <translation>渠道类型</translation>
    </message>
    <message>
        <source>comma-separated, from: {topics} (default: all)</source>
        <translation>逗号分隔，可选：{topics}（默认：全部）</translation>
    </message>
    <message>
        <source>email: the SMTP server, e.g. smtp.qq.com</source>
        <translation>邮件：SMTP 服务器，例如 smtp.qq.com</translation>
    </message>
    <message>
        <source>email: 465 with --security ssl (default), 587 with starttls</source>
        <translation>邮件：--security ssl（默认）用 465，starttls 用 587</translation>
    </message>
    <message>
        <source>email: implicit TLS or STARTTLS</source>
        <translation>邮件：隐式 TLS 或 STARTTLS</translation>
    </message>
    <message>
        <source>email: the login (often the address itself)</source>
        <translation>邮件：登录名（通常就是邮箱地址）</translation>
    </message>
    <message>
        <source>email: the sender address (default: --username)</source>
        <translation>邮件：发件地址（默认：--username）</translation>
    </message>
    <message>
        <source>email: a recipient; repeatable</source>
        <translation>邮件：收件人；可重复</translation>
    </message>
    <message>
        <source>ntfy: the priority (default: the server's)</source>
        <translation>ntfy：优先级（默认：服务器的设置）</translation>
    </message>
    <message>
        <source>serverchan/pushplus: another https address for the service (a mirror)</source>
        <translation>Server酱/PushPlus：服务的另一个 https 地址（镜像）</translation>
    </message>
    <message>
        <source>a CA to trust besides the system's (a self-hosted server with a private CA)</source>
        <translation>除系统 CA 外额外信任的 CA（自建服务器使用私有 CA 时）</translation>
    </message>
    <message>
        <source>rate limit of this channel (default 12)</source>
        <translation>此渠道的频率限制（默认 12）</translation>
    </message>
    <message>
        <source>read the secrets from stdin, one line each (see above), instead of prompting</source>
        <translation>从标准输入读取密钥，每行一个（见上文），而不是提示输入</translation>
    </message>
    <message>
        <source>list the channels and each one's last result</source>
        <translation>列出通知渠道及每个渠道的上次结果</translation>
    </message>
    <message>
        <source>print JSON</source>
        <translation>输出 JSON</translation>
    </message>
    <message>
        <source>send a test notice on a channel now</source>
        <translation>立即通过某个渠道发送测试通知</translation>
    </message>
    <message>
        <source>channel name (labgpu notify ls)</source>
        <translation>渠道名称（labgpu notify ls）</translation>
    </message>
    <message>
        <source>remove a channel and its keyring entries</source>
        <translation>删除通知渠道及其密钥环条目</translation>
    </message>
    <message>
        <source>No {what} on stdin.</source>
        <translation>标准输入中没有 {what}。</translation>
    </message>
    <message>
        <source>Pipe the secrets in, one line each: {order}.</source>
        <translation>请通过管道逐行输入密钥：{order}。</translation>
    </message>
    <message>
        <source>Added the {kind} channel {name}; its secrets are in the system keyring. Try it: labgpu notify test {name}</source>
        <translation>已添加 {kind} 通知渠道 {name}，其密钥保存在系统密钥环中。试一下：labgpu notify test {name}</translation>
    </message>
    <message>
        <source>No notification channels. Add one: labgpu notify add NAME --kind ntfy</source>
        <translation>还没有通知渠道。添加一个：labgpu notify add NAME --kind ntfy</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>EVENTS</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>WHERE</source>
        <translation>目的地</translation>
    </message>
    <message>
        <source>LAST RESULT</source>
        <translation>上次结果</translation>
    </message>
    <message>
        <source>Sent a test notice on {name}: {text}</source>
        <translation>已通过 {name} 发送测试通知：{text}</translation>
    </message>
    <message>
        <source>labgpu: [NotifyFailed] {name}: {text}</source>
        <translation>labgpu：[NotifyFailed] {name}：{text}</translation>
    </message>
    <message>
        <source>Removed the channel {name} and its keyring entries</source>
        <translation>已删除通知渠道 {name} 及其密钥环条目</translation>
    </message>
</context>
<context>
    <name>Notify</name>
    <message>
        <source>Email (SMTP over TLS)</source>
        <translation>邮件（SMTP，TLS 加密）</translation>
    </message>
    <message>
        <source>WeChat via ServerChan</source>
        <translation>微信（Server酱）</translation>
    </message>
    <message>
        <source>WeChat via PushPlus</source>
        <translation>微信（PushPlus 推送加）</translation>
    </message>
    <message>
        <source>Feishu / Lark group bot</source>
        <translation>飞书 / Lark 群机器人</translation>
    </message>
    <message>
        <source>DingTalk group bot</source>
        <translation>钉钉群机器人</translation>
    </message>
    <message>
        <source>ntfy</source>
        <translation>ntfy</translation>
    </message>
    <message>
        <source>Webhook (signed with HMAC-SHA256)</source>
        <translation>Webhook（HMAC-SHA256 签名）</translation>
    </message>
    <message>
        <source>SMTP password</source>
        <translation>SMTP 密码</translation>
    </message>
    <message>
        <source>ServerChan SendKey</source>
        <translation>Server酱 SendKey</translation>
    </message>
    <message>
        <source>PushPlus token</source>
        <translation>PushPlus 令牌</translation>
    </message>
    <message>
        <source>Webhook address</source>
        <translation>Webhook 地址</translation>
    </message>
    <message>
        <source>Signing secret</source>
        <translation>签名密钥</translation>
    </message>
    <message>
        <source>Topic address</source>
        <translation>主题地址</translation>
    </message>
    <message>
        <source>Access token</source>
        <translation>访问令牌</translation>
    </message>
    <message>
        <source>Guard warnings (idle GPUs)</source>
        <translation>守护提醒（GPU 空闲）</translation>
    </message>
    <message>
        <source>A guard stopped an instance</source>
        <translation>守护停止了实例</translation>
    </message>
    <message>
        <source>A stop failed (still billing)</source>
        <translation>停止失败（仍在计费）</translation>
    </message>
    <message>
        <source>Spot interruption notices</source>
        <translation>竞价实例回收通知</translation>
    </message>
    <message>
        <source>Job finished</source>
        <translation>任务完成</translation>
    </message>
    <message>
        <source>Job failed</source>
        <translation>任务失败</translation>
    </message>
    <message>
        <source>Job stalled</source>
        <translation>任务停滞</translation>
    </message>
    <message>
        <source>Budget thresholds</source>
        <translation>预算阈值</translation>
    </message>
    <message>
        <source>VPN down</source>
        <translation>VPN 断开</translation>
    </message>
    <message>
        <source>Waiting for a GPU: landed or gave up</source>
        <translation>蹲卡：抢到了或放弃了</translation>
    </message>
    <message>
        <source>Unusual logins and cloud calls LabGPU did not make</source>
        <translation>异常登录和非 LabGPU 发起的云端调用</translation>
    </message>
    <message>
        <source>{target}: the GPUs are idle</source>
        <translation>{target}：GPU 空闲</translation>
    </message>
    <message>
        <source>Every GPU of {target} has been under {pct} % for {minutes} minutes.</source>
        <translation>{target} 的所有 GPU 已连续 {minutes} 分钟低于 {pct} %。</translation>
    </message>
    <message>
        <source>{target}: {pct} % of its budget used</source>
        <translation>{target}：预算已用 {pct} %</translation>
    </message>
    <message>
        <source>{target} has used {spent} of its budget of {budget} {cur}.</source>
        <translation>{target} 已花费 {spent}，预算为 {budget} {cur}。</translation>
    </message>
    <message>
        <source>{target} reached its budget: stopping it</source>
        <translation>{target} 已达预算：正在停止</translation>
    </message>
    <message>
        <source>{target} has used {spent} of its budget of {budget} {cur}; its guard is stopping it.</source>
        <translation>{target} 已花费 {spent}，预算为 {budget} {cur}；守护正在停止它。</translation>
    </message>
    <message>
        <source>{target}: idle, stopping it</source>
        <translation>{target}：空闲，正在停止</translation>
    </message>
    <message>
        <source>Every GPU of {target} has been under {pct} % for {minutes} minutes; its guard is stopping it.</source>
        <translation>{target} 的所有 GPU 已连续 {minutes} 分钟低于 {pct} %；守护正在停止它。</translation>
    </message>
    <message>
        <source>{target}: maximum runtime reached, stopping it</source>
        <translation>{target}：已达最长运行时间，正在停止</translation>
    </message>
    <message>
        <source>{target} ran its maximum of {hours} hours; its guard is stopping it.</source>
        <translation>{target} 已运行到最长 {hours} 小时；守护正在停止它。</translation>
    </message>
    <message>
        <source>{target}: the process exited, stopping it</source>
        <translation>{target}：进程已退出，正在停止</translation>
    </message>
    <message>
        <source>The process {process} on {target} has exited; its guard is stopping it.</source>
        <translation>{target} 上的进程 {process} 已退出；守护正在停止它。</translation>
    </message>
    <message>
        <source>{target} was stopped</source>
        <translation>{target} 已停止</translation>
    </message>
    <message>
        <source>{target} was stopped by its guard ({guard}). It no longer bills for compute.</source>
        <translation>{target} 已被守护（{guard}）停止，不再产生计算费用。</translation>
    </message>
    <message>
        <source>{target} was terminated</source>
        <translation>{target} 已释放</translation>
    </message>
    <message>
        <source>{target} was terminated by its guard ({guard}): {reason}.</source>
        <translation>{target} 已被守护（{guard}）释放：{reason}。</translation>
    </message>
    <message>
        <source>{target} could NOT be stopped: still billing</source>
        <translation>{target} 无法停止：仍在计费</translation>
    </message>
    <message>
        <source>{target} could not be stopped after {tries} tries: {why}. It is still billing: stop it in the cloud console. LabGPU keeps trying.</source>
        <translation>{target} 尝试 {tries} 次后仍无法停止：{why}。它仍在计费：请在云控制台停止它。LabGPU 会继续尝试。</translation>
    </message>
    <message>
        <source>{target} could NOT be terminated: still billing</source>
        <translation>{target} 无法释放：仍在计费</translation>
    </message>
    <message>
        <source>Terminating {target} failed after {tries} tries: {why}. It is still billing: terminate it in the cloud console.</source>
        <translation>释放 {target} 尝试 {tries} 次后失败：{why}。它仍在计费：请在云控制台释放它。</translation>
    </message>
    <message>
        <source>{target} is still billing</source>
        <translation>{target} 仍在计费</translation>
    </message>
    <message>
        <source>{target} could not be stopped: {reason}. Pull what you need, then terminate it.</source>
        <translation>{target} 无法停止：{reason}。请先拉取需要的文件，再释放它。</translation>
    </message>
    <message>
        <source>{target} will be reclaimed by the cloud</source>
        <translation>{target} 即将被云平台回收</translation>
    </message>
    <message>
        <source>The cloud reclaims the spot instance {target} at {when} ({action}). LabGPU is pulling checkpoints now.</source>
        <translation>云平台将在 {when} 回收竞价实例 {target}（{action}）。LabGPU 正在拉取检查点。</translation>
    </message>
    <message>
        <source>Job {name} on {target} finished</source>
        <translation>{target} 上的任务 {name} 已完成</translation>
    </message>
    <message>
        <source>The job {name} on {target} finished with exit code {exit_code}.</source>
        <translation>{target} 上的任务 {name} 已完成，退出码 {exit_code}。</translation>
    </message>
    <message>
        <source>Job {name} on {target} did not end well</source>
        <translation>{target} 上的任务 {name} 未正常结束</translation>
    </message>
    <message>
        <source>The job {name} on {target} ended ({state}, exit code {exit_code}). Its log: labgpu logs {job}</source>
        <translation>{target} 上的任务 {name} 已结束（{state}，退出码 {exit_code}）。查看日志：labgpu logs {job}</translation>
    </message>
    <message>
        <source>Job {name} on {target} stalled</source>
        <translation>{target} 上的任务 {name} 停滞</translation>
    </message>
    <message>
        <source>The job {name} on {target} still runs but makes no progress (no new step, log line or TensorBoard event). Its log: labgpu logs {job}</source>
        <translation>{target} 上的任务 {name} 仍在运行，但没有进展（没有新的步数、日志行或 TensorBoard 事件）。查看日志：labgpu logs {job}</translation>
    </message>
    <message>
        <source>Your {type} is here: {id}</source>
        <translation>你的 {type} 抢到了：{id}</translation>
    </message>
    <message>
        <source>The wait {target} got {type}: the instance {id} launched after {attempts} attempts.</source>
        <translation>等待 {target} 抢到了 {type}：实例 {id} 在尝试 {attempts} 次后启动。</translation>
    </message>
    <message>
        <source>Stopped waiting for {type}</source>
        <translation>已停止等待 {type}</translation>
    </message>
    <message>
        <source>The wait {target} ended without an instance: {why}</source>
        <translation>等待 {target} 结束了，没有抢到实例：{why}</translation>
    </message>
    <message>
        <source>{target}: unusual SSH login by {user} from {source}</source>
        <translation>{target}：{user} 从 {source} 异常 SSH 登录</translation>
    </message>
    <message>
        <source>{target} accepted an SSH login by {user} from {source} at {time} ({method}): {why}. If this was not you, stop the instance and change its keys.</source>
        <translation>{target} 于 {time} 接受了 {user} 从 {source} 的 SSH 登录（{method}）：{why}。如果不是你本人，请停止实例并更换密钥。</translation>
    </message>
    <message>
        <source>{target}: {count} failed SSH logins</source>
        <translation>{target}：{count} 次 SSH 登录失败</translation>
    </message>
    <message>
        <source>{target} refused {count} SSH logins from {sources} addresses since {since}; most from {top}. Key-only login keeps them out.</source>
        <translation>自 {since} 以来，{target} 拒绝了来自 {sources} 个地址的 {count} 次 SSH 登录；最多的是 {top}。只允许密钥登录可以把它们挡在门外。</translation>
    </message>
    <message>
        <source>{target}: {event} not made by LabGPU</source>
        <translation>{target}：{event} 不是 LabGPU 发起的</translation>
    </message>
    <message>
        <source>The account {target} shows {event} on {resource} at {time} by {actor} from {source}, and LabGPU did not make it. If it was not you, disable the account's keys in the cloud console.</source>
        <translation>账号 {target} 在 {time} 记录了 {actor} 从 {source} 对 {resource} 的 {event} 操作，而 LabGPU 并未发起。如果不是你本人，请在云控制台停用该账号的密钥。</translation>
    </message>
    <message>
        <source>VPN {target} is down</source>
        <translation>VPN {target} 已断开</translation>
    </message>
    <message>
        <source>The tunnel {target} dropped ({state}): {why}. Hosts behind it cannot be reached until it is back.</source>
        <translation>隧道 {target} 已断开（{state}）：{why}。在它恢复之前，无法访问其后的主机。</translation>
    </message>
    <message>
        <source>LabGPU test notice</source>
        <translation>LabGPU 测试通知</translation>
    </message>
    <message>
        <source>This is a test from LabGPU. If you can read it, the channel {channel} works.</source>
        <translation>这是一条来自 LabGPU 的测试消息。如果你能看到它，说明渠道 {channel} 可以正常使用。</translation>
    </message>
    <message>
        <source>LabGPU: {target}</source>
        <translation>LabGPU：{target}</translation>
    </message>
    <message>
        <source>{message}</source>
        <translation>{message}</translation>
    </message>
    <message>
        <source>Sent by LabGPU at {time}.</source>
        <translation>由 LabGPU 于 {time} 发送。</translation>
    </message>
</context>
<context>
    <name>NotifySection</name>
    <message>
        <source>Notifications</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>Notices that reach you away from the laptop — by mail, WeChat (ServerChan, PushPlus), Feishu, DingTalk, ntfy or a webhook: guard stops, a stop that failed, spot notices, jobs that end or stall, budgets, VPN drops.</source>
        <translation>离开电脑时也能收到的通知——通过邮件、微信（Server酱、PushPlus）、飞书、钉钉、ntfy 或 Webhook：守护停止、停止失败、竞价回收、任务结束或停滞、预算、VPN 断开。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Last result</source>
        <translation>上次结果</translation>
    </message>
    <message>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <source>Re&amp;move</source>
        <translation>删除(&amp;M)</translation>
    </message>
    <message>
        <source>Send a &amp;test</source>
        <translation>发送测试(&amp;T)</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>{n} of {total}</source>
        <translation>{n}/{total}</translation>
    </message>
    <message>
        <source>not tried yet</source>
        <translation>尚未尝试</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>{name} (off)</source>
        <translation>{name}（已关闭）</translation>
    </message>
    <message>
        <source>Remove the channel {name} and its secrets from the keyring?</source>
        <translation>删除渠道 {name} 并从密钥环中删除它的密钥？</translation>
    </message>
    <message>
        <source>Remove channel</source>
        <translation>删除渠道</translation>
    </message>
    <message>
        <source>Removed {name}.</source>
        <translation>已删除 {name}。</translation>
    </message>
    <message>
        <source>Sending a test notice on {name}…</source>
        <translation>正在通过 {name} 发送测试通知…</translation>
    </message>
    <message>
        <source>Sent a test notice on {name}: {what}</source>
        <translation>已通过 {name} 发送测试通知：{what}</translation>
    </message>
    <message>
        <source>The test notice on {name} failed: {why}</source>
        <translation>通过 {name} 发送测试通知失败：{why}</translation>
    </message>
</context>
</TS>