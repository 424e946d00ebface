<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>AddHostDialog</name>
    <message>
        <source>Add host from SSH command</source>
        <translation>从 SSH 命令添加主机</translation>
    </message>
    <message>
        <source>Paste the SSH command your provider shows. The password (if any) is kept in the system keyring, never in a file.</source>
        <translation>粘贴服务商给出的 SSH 命令。密码（如有）保存在系统密钥环中，绝不写入文件。</translation>
    </message>
    <message>
        <source>SSH &amp;command:</source>
        <translation>SSH 命令(&amp;C)：</translation>
    </message>
    <message>
        <source>e.g. lab-4090</source>
        <translation>例如 lab-4090</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>optional: leave empty for key or agent login</source>
        <translation>可选：使用密钥或 agent 登录时留空</translation>
    </message>
    <message>
        <source>&amp;Password:</source>
        <translation>密码(&amp;P)：</translation>
    </message>
    <message>
        <source>Direct (no VPN)</source>
        <translation>直连（不经 VPN）</translation>
    </message>
    <message>
        <source>Via VPN {name}</source>
        <translation>经 VPN {name}</translation>
    </message>
    <message>
        <source>A host behind a VPN: LabGPU brings the VPN up first and connects to the address in the command (its private address).</source>
        <translation>位于 VPN 之后的主机：LabGPU 先连接 VPN，再连接命令中的地址（即其内网地址）。</translation>
    </message>
    <message>
        <source>&amp;Reach it:</source>
        <translation>连接方式(&amp;R)：</translation>
    </message>
    <message>
        <source>Add and connect</source>
        <translation>添加并连接</translation>
    </message>
    <message>
        <source>Accepted: -p PORT, -i KEY, -J JUMP, user@host, or a ~/.ssh/config alias.</source>
        <translation>支持：-p 端口、-i 密钥、-J 跳板机、user@host，或 ~/.ssh/config 中的别名。</translation>
    </message>
    <message>
        <source>User: {user}</source>
        <translation>用户：{user}</translation>
    </message>
    <message>
        <source>(default)</source>
        <translation>（默认）</translation>
    </message>
    <message>
        <source>Host: {host}</source>
        <translation>主机：{host}</translation>
    </message>
    <message>
        <source>Port: {port}</source>
        <translation>端口：{port}</translation>
    </message>
    <message>
        <source>Key: {key}</source>
        <translation>密钥：{key}</translation>
    </message>
    <message>
        <source>Key &amp;passphrase:</source>
        <translation>密钥口令(&amp;P)：</translation>
    </message>
    <message>
        <source>only if the key file is encrypted</source>
        <translation>仅当密钥文件已加密时填写</translation>
    </message>
    <message>
        <source>Jump: {jump}</source>
        <translation>跳板机：{jump}</translation>
    </message>
    <message>
        <source>A host with this name exists already.</source>
        <translation>已有同名主机。</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
</context>
<context>
    <name>HostKeyDialog</name>
    <message>
        <source>New host key</source>
        <translation>新的主机密钥</translation>
    </message>
    <message>
        <source>LabGPU has not connected to &lt;b&gt;{host}&lt;/b&gt; before. Check that this fingerprint matches the one your provider shows (console, web page or e-mail) before you accept it.</source>
        <translation>LabGPU 之前从未连接过 &lt;b&gt;{host}&lt;/b&gt;。接受之前，请确认此指纹与服务商提供的指纹（控制台、网页或邮件）一致。</translation>
    </message>
    <message>
        <source>Address:</source>
        <translation>地址：</translation>
    </message>
    <message>
        <source>Key type:</source>
        <translation>密钥类型：</translation>
    </message>
    <message>
        <source>Fingerprint:</source>
        <translation>指纹：</translation>
    </message>
    <message>
        <source>If they differ, refuse: someone may be pretending to be your server.</source>
        <translation>如果不一致，请拒绝：可能有人在冒充你的服务器。</translation>
    </message>
    <message>
        <source>&amp;Accept and connect</source>
        <translation>接受并连接(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Refuse</source>
        <translation>拒绝(&amp;R)</translation>
    </message>
</context>
<context>
    <name>HostsModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>VPN</source>
        <translation>VPN</translation>
    </message>
    <message>
        <source>Host key (SHA256)</source>
        <translation>主机密钥（SHA256）</translation>
    </message>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Reconnecting…</source>
        <translation>重新连接中…</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>not known yet</source>
        <translation>尚未记录</translation>
    </message>
    <message>
        <source>Launched instance {instance_id} ({provider})</source>
        <translation>已启动的实例 {instance_id}（{provider}）</translation>
    </message>
    <message>
        <source>The server's identity. A change is refused until you forget the old key.</source>
        <translation>服务器的身份标识。密钥改变时会拒绝连接，直到你忘记旧密钥。</translation>
    </message>
</context>
<context>
    <name>HostsPage</name>
    <message>
        <source>Hosts</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Servers you log in to over SSH: rented machines and your launched instances.</source>
        <translation>通过 SSH 登录的服务器：租用的机器和你启动的实例。</translation>
    </message>
    <message>
        <source>&amp;Add from SSH command…</source>
        <translation>从 SSH 命令添加(&amp;A)…</translation>
    </message>
    <message>
        <source>Paste e.g. "ssh -p 12345 root@region-1.example.com" (Ctrl+N)</source>
        <translation>粘贴例如 "ssh -p 12345 root@region-1.example.com"（Ctrl+N）</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Disconnect</source>
        <translation>断开(&amp;D)</translation>
    </message>
    <message>
        <source>Open &amp;TensorBoard</source>
        <translation>打开 &amp;TensorBoard</translation>
    </message>
    <message>
        <source>Tunnel to port 6006 on the host and open it in the browser (Ctrl+T)</source>
        <translation>建立到主机 6006 端口的隧道并在浏览器中打开（Ctrl+T）</translation>
    </message>
    <message>
        <source>Open &amp;Jupyter</source>
        <translation>打开 &amp;Jupyter</translation>
    </message>
    <message>
        <source>Tunnel to port 8888 on the host and open it in the browser (Ctrl+J)</source>
        <translation>建立到主机 8888 端口的隧道并在浏览器中打开（Ctrl+J）</translation>
    </message>
    <message>
        <source>Copy SSH co&amp;mmand</source>
        <translation>复制 SSH 命令(&amp;M)</translation>
    </message>
    <message>
        <source>Copy the ssh command for a terminal (Ctrl+Shift+C)</source>
        <translation>复制可在终端中使用的 ssh 命令（Ctrl+Shift+C）</translation>
    </message>
    <message>
        <source>Recent &amp;logins…</source>
        <translation>最近登录(&amp;L)…</translation>
    </message>
    <message>
        <source>Who logged in over SSH, and which logins were unusual (Ctrl+L)</source>
        <translation>谁通过 SSH 登录过，哪些登录异常（Ctrl+L）</translation>
    </message>
    <message>
        <source>&amp;Forget host key</source>
        <translation>忘记主机密钥(&amp;F)</translation>
    </message>
    <message>
        <source>Only after your provider confirms the server was rebuilt</source>
        <translation>仅在服务商确认服务器已重建后使用</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>删除(&amp;R)</translation>
    </message>
    <message>
        <source>Remove the host and its stored password (Delete)</source>
        <translation>删除主机及其保存的密码（Delete）</translation>
    </message>
    <message>
        <source>No hosts yet. Click "Add from SSH command…" and paste the command your provider shows, e.g. ssh -p 12345 root@region-1.example.com.</source>
        <translation>还没有主机。点击“从 SSH 命令添加…”，粘贴服务商给出的命令，例如 ssh -p 12345 root@region-1.example.com。</translation>
    </message>
    <message>
        <source>Connected to {name}.</source>
        <translation>已连接到 {name}。</translation>
    </message>
    <message>
        <source>Adding {name} and connecting…</source>
        <translation>正在添加 {name} 并连接…</translation>
    </message>
    <message>
        <source>Connecting to {name}…</source>
        <translation>正在连接 {name}…</translation>
    </message>
    <message>
        <source>Disconnected from {name}.</source>
        <translation>已断开与 {name} 的连接。</translation>
    </message>
    <message>
        <source>Host key of {name} refused; {name} was not added.</source>
        <translation>已拒绝 {name} 的主机密钥；未添加 {name}。</translation>
    </message>
    <message>
        <source>Compare the fingerprint with the one your provider shows, then press Add and connect again.</source>
        <translation>请将指纹与服务商显示的指纹核对，然后再次点击“添加并连接”。</translation>
    </message>
    <message>
        <source>{name} was not added: {message}</source>
        <translation>未添加 {name}：{message}</translation>
    </message>
    <message>
        <source>Host key of {name} refused; not connected.</source>
        <translation>已拒绝 {name} 的主机密钥；未连接。</translation>
    </message>
    <message>
        <source>Host key changed</source>
        <translation>主机密钥已改变</translation>
    </message>
    <message>
        <source>Forget this host key</source>
        <translation>忘记此主机密钥</translation>
    </message>
    <message>
        <source>Forgot the host key of {name}; check the new fingerprint.</source>
        <translation>已忘记 {name} 的主机密钥；请核对新的指纹。</translation>
    </message>
    <message>
        <source>Forget host key</source>
        <translation>忘记主机密钥</translation>
    </message>
    <message>
        <source>Forget the trusted key of {name}? The next connection will show its fingerprint for you to check again.</source>
        <translation>忘记 {name} 的受信任密钥？下次连接时会再次显示指纹供你核对。</translation>
    </message>
    <message>
        <source>Opening a tunnel to port {port} on {name}…</source>
        <translation>正在建立到 {name} 端口 {port} 的隧道…</translation>
    </message>
    <message>
        <source>Port {port} on {name} is open at {url}</source>
        <translation>{name} 的端口 {port} 已在 {url} 打开</translation>
    </message>
    <message>
        <source>No tunnel to port {port} on {name}: {message}</source>
        <translation>无法打开到 {name} 端口 {port} 的隧道：{message}</translation>
    </message>
    <message>
        <source>Copied: {command}</source>
        <translation>已复制：{command}</translation>
    </message>
    <message>
        <source>Remove host</source>
        <translation>删除主机</translation>
    </message>
    <message>
        <source>Remove {name} and its stored password?</source>
        <translation>删除 {name} 及其保存的密码？</translation>
    </message>
</context>
<context>
    <name>LabGPU</name>
    <message>
        <source>Nothing listens on port {port} of {host}.</source>
        <translation>{host} 的端口 {port} 上没有服务在监听。</translation>
    </message>
    <message>
        <source>Start it on the server first, e.g. 'tensorboard --logdir runs' or 'jupyter lab --no-browser'; it must listen on 127.0.0.1.</source>
        <translation>请先在服务器上启动服务，例如 'tensorboard --logdir runs' 或 'jupyter lab --no-browser'；它必须监听 127.0.0.1。</translation>
    </message>
    <message>
        <source>ProxyJump for {host} loops or is too long.</source>
        <translation>{host} 的 ProxyJump 存在循环或链过长。</translation>
    </message>
    <message>
        <source>Check the -J hosts and ~/.ssh/config.</source>
        <translation>请检查 -J 跳板机和 ~/.ssh/config。</translation>
    </message>
    <message>
        <source>Cannot reach {host} ({why}).</source>
        <translation>无法连接 {host}（{why}）。</translation>
    </message>
    <message>
        <source>Check that the server is running, the address and port are right and your network (or VPN) is up, then retry.</source>
        <translation>请确认服务器正在运行、地址和端口正确、网络（或 VPN）已连通，然后重试。</translation>
    </message>
    <message>
        <source>{host} refused the login (tried: {tried}).</source>
        <translation>{host} 拒绝登录（已尝试：{tried}）。</translation>
    </message>
    <message>
        <source>The connection to {host} was lost while logging in ({why}).</source>
        <translation>登录 {host} 时连接断开（{why}）。</translation>
    </message>
    <message>
        <source>Check that the server is running and your network is up, then retry.</source>
        <translation>请确认服务器正在运行、网络正常，然后重试。</translation>
    </message>
    <message>
        <source>The key {path} needs a passphrase and none is stored for {host}.</source>
        <translation>密钥 {path} 需要口令，但没有为 {host} 保存口令。</translation>
    </message>
    <message>
        <source>The stored passphrase does not open the key {path}.</source>
        <translation>保存的口令无法解开密钥 {path}。</translation>
    </message>
    <message>
        <source>Cannot read the key {path} ({why}).</source>
        <translation>无法读取密钥 {path}（{why}）。</translation>
    </message>
    <message>
        <source>Check the key file's path and permissions.</source>
        <translation>请检查密钥文件的路径和权限。</translation>
    </message>
    <message>
        <source>The key file {path} does not exist.</source>
        <translation>密钥文件 {path} 不存在。</translation>
    </message>
    <message>
        <source>Fix the path (-i) of this host.</source>
        <translation>请修正此主机的密钥路径（-i）。</translation>
    </message>
    <message>
        <source>No password is stored for {host}.</source>
        <translation>没有为 {host} 保存密码。</translation>
    </message>
    <message>
        <source>Check the user name and key or password: remove the host and add it again with the right ones.</source>
        <translation>请检查用户名以及密钥或密码：删除该主机，再用正确的信息重新添加。</translation>
    </message>
    <message>
        <source>Add the host again with the passphrase ('labgpu hosts add … --passphrase-stdin'), or load the key into your ssh-agent.</source>
        <translation>请带上口令重新添加主机（'labgpu hosts add … --passphrase-stdin'），或将密钥加载到 ssh-agent。</translation>
    </message>
    <message>
        <source>Add the host again with the right passphrase.</source>
        <translation>请用正确的口令重新添加主机。</translation>
    </message>
    <message>
        <source>Add the host again with its password (Hosts page, or 'labgpu hosts add … --password-stdin').</source>
        <translation>请带上密码重新添加主机（主机页面，或 'labgpu hosts add … --password-stdin'）。</translation>
    </message>
    <message>
        <source>The jump host {jump} could not reach {host} ({why}).</source>
        <translation>跳板机 {jump} 无法连接 {host}（{why}）。</translation>
    </message>
    <message>
        <source>Check the address behind the jump host and that it allows TCP forwarding.</source>
        <translation>请检查跳板机之后的地址，并确认跳板机允许 TCP 转发。</translation>
    </message>
    <message>
        <source>The connection to {host} was closed.</source>
        <translation>与 {host} 的连接已关闭。</translation>
    </message>
    <message>
        <source>Not connected to {host}.</source>
        <translation>未连接到 {host}。</translation>
    </message>
    <message>
        <source>Connect first (it may have dropped).</source>
        <translation>请先连接（连接可能已断开）。</translation>
    </message>
    <message>
        <source>{host} refused to open SFTP.</source>
        <translation>{host} 拒绝打开 SFTP。</translation>
    </message>
    <message>
        <source>Enable the sftp subsystem on the server.</source>
        <translation>请在服务器上启用 sftp 子系统。</translation>
    </message>
    <message>
        <source>The command on {host} printed too much output.</source>
        <translation>{host} 上的命令输出过多。</translation>
    </message>
    <message>
        <source>The command on {host} did not finish in {secs} s.</source>
        <translation>{host} 上的命令未在 {secs} 秒内完成。</translation>
    </message>
    <message>
        <source>Retry; if it keeps happening the server is overloaded.</source>
        <translation>请重试；如果一再发生，说明服务器负载过高。</translation>
    </message>
    <message>
        <source>The host key of {host} ({key_type} {fingerprint}) was not accepted.</source>
        <translation>{host} 的主机密钥（{key_type} {fingerprint}）未被接受。</translation>
    </message>
    <message>
        <source>The host key of {host} is not known yet: {key_type} {fingerprint}.</source>
        <translation>{host} 的主机密钥尚未记录：{key_type} {fingerprint}。</translation>
    </message>
    <message>
        <source>Compare the fingerprint with the one your provider shows; accept it only if they match (command line: labgpu hosts trust {name} --fingerprint {fingerprint}).</source>
        <translation>请把这个指纹与服务商显示的指纹比对；只有一致时才接受（命令行：labgpu hosts trust {name} --fingerprint {fingerprint}）。</translation>
    </message>
    <message>
        <source>If this matches the fingerprint your provider shows, accept it (in the app: answer the question; command line: labgpu hosts trust {name} --fingerprint {fingerprint}).</source>
        <translation>如果它与服务商显示的指纹一致，就接受它（在应用中：回答提示的问题；命令行：labgpu hosts trust {name} --fingerprint {fingerprint}）。</translation>
    </message>
    <message>
        <source>WARNING: the host key of {host} has CHANGED (now {key_type} {fingerprint}, known {known}). Someone may be intercepting the connection; LabGPU refused to connect.</source>
        <translation>警告：{host} 的主机密钥已改变（现在是 {key_type} {fingerprint}，已知的是 {known}）。可能有人在拦截连接；LabGPU 已拒绝连接。</translation>
    </message>
    <message>
        <source>If the server was rebuilt and your provider confirms the new fingerprint, use "Forget this host key" ('labgpu hosts forget-key NAME') and connect again.</source>
        <translation>如果服务器已重建且服务商确认了新的指纹，请使用“忘记此主机密钥”（'labgpu hosts forget-key NAME'）后重新连接。</translation>
    </message>
    <message>
        <source>The host key of {host} ({fingerprint}) does not match the instance's console output ({expected}); LabGPU refused to connect.</source>
        <translation>{host} 的主机密钥（{fingerprint}）与实例控制台输出中的指纹（{expected}）不一致；LabGPU 已拒绝连接。</translation>
    </message>
    <message>
        <source>Wait a minute and retry (the console output may be from an earlier boot); if it persists, do not use this instance.</source>
        <translation>请稍等一分钟再试（控制台输出可能来自之前的启动）；如果仍不一致，请不要使用此实例。</translation>
    </message>
    <message>
        <source>{what!r} is neither tensorboard, jupyter nor a port.</source>
        <translation>{what!r} 既不是 tensorboard、jupyter，也不是端口号。</translation>
    </message>
    <message>
        <source>Give tensorboard, jupyter or a port number.</source>
        <translation>请指定 tensorboard、jupyter 或端口号。</translation>
    </message>
    <message>
        <source>Port {port} is outside 1–65535.</source>
        <translation>端口 {port} 超出 1–65535 范围。</translation>
    </message>
    <message>
        <source>Local port {port} is not free ({why}).</source>
        <translation>本地端口 {port} 已被占用（{why}）。</translation>
    </message>
    <message>
        <source>Close what uses it or let LabGPU pick a free port.</source>
        <translation>请关闭占用它的程序，或让 LabGPU 自动选择空闲端口。</translation>
    </message>
    <message>
        <source>The saved host {name!r} has a bad {column} in the database: {value!r}.</source>
        <translation>已保存的主机 {name!r} 在数据库中的 {column} 值有误：{value!r}。</translation>
    </message>
    <message>
        <source>Remove it with 'labgpu hosts rm {name}' (or on the Hosts page) and add it again.</source>
        <translation>用 'labgpu hosts rm {name}'（或在“主机”页面）删除它，然后重新添加。</translation>
    </message>
    <message>
        <source>Host name {name!r} is not allowed.</source>
        <translation>主机名 {name!r} 不可用。</translation>
    </message>
    <message>
        <source>Use 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit.</source>
        <translation>请使用 1–64 个字母、数字、'.'、'_' 或 '-'，并以字母或数字开头。</translation>
    </message>
    <message>
        <source>Unknown authentication kind {auth!r}.</source>
        <translation>未知的认证方式 {auth!r}。</translation>
    </message>
    <message>
        <source>No host named {name!r}.</source>
        <translation>没有名为 {name!r} 的主机。</translation>
    </message>
    <message>
        <source>List hosts with 'labgpu hosts ls'.</source>
        <translation>用 'labgpu hosts ls' 列出主机。</translation>
    </message>
    <message>
        <source>A host named {name!r} already exists.</source>
        <translation>名为 {name!r} 的主机已存在。</translation>
    </message>
    <message>
        <source>Pick another name or remove the old host first.</source>
        <translation>请换一个名称，或先删除旧主机。</translation>
    </message>
    <message>
        <source>{host} has the key {fingerprint}, not the one given ({given}).</source>
        <translation>{host} 的密钥是 {fingerprint}，与给定的（{given}）不一致。</translation>
    </message>
    <message>
        <source>Check the fingerprint with your provider.</source>
        <translation>请向服务商核对指纹。</translation>
    </message>
    <message>
        <source>This SSH command cannot be used: {reason}</source>
        <translation>无法使用此 SSH 命令：{reason}</translation>
    </message>
    <message>
        <source>Paste the command as the provider shows it, e.g. "ssh -p 12345 root@region-1.example.com".</source>
        <translation>请按服务商给出的原样粘贴命令，例如 "ssh -p 12345 root@region-1.example.com"。</translation>
    </message>
    <message>
        <source>port {port!r} is not a number</source>
        <translation>端口 {port!r} 不是数字</translation>
    </message>
    <message>
        <source>port {port} is outside 1–65535</source>
        <translation>端口 {port} 超出 1–65535 范围</translation>
    </message>
    <message>
        <source>{host!r} is not a host name or address</source>
        <translation>{host!r} 不是主机名或地址</translation>
    </message>
    <message>
        <source>{user!r} is not a valid user name</source>
        <translation>{user!r} 不是有效的用户名</translation>
    </message>
    <message>
        <source>an IPv6 address cannot be written in an ssh:// URI; use: ssh -p PORT user@ADDRESS</source>
        <translation>ssh:// 地址中不能写 IPv6 地址；请使用：ssh -p 端口 用户@地址</translation>
    </message>
    <message>
        <source>option -F (another ssh config file) cannot be honoured; LabGPU reads ~/.ssh/config only</source>
        <translation>无法支持选项 -F（另一个 ssh 配置文件）；LabGPU 只读取 ~/.ssh/config</translation>
    </message>
    <message>
        <source>-o HostName cannot be honoured; put the real host name in the command (user@HOST)</source>
        <translation>无法支持 -o HostName；请把真实的主机名写在命令里（用户@主机）</translation>
    </message>
    <message>
        <source>option -o {option} cannot be honoured by LabGPU; remove it</source>
        <translation>LabGPU 无法支持选项 -o {option}；请删除它</translation>
    </message>
    <message>
        <source>key file {path!r} cannot be used</source>
        <translation>无法使用密钥文件 {path!r}</translation>
    </message>
    <message>
        <source>-{opt} {value!r} is not a valid forward</source>
        <translation>-{opt} {value!r} 不是有效的端口转发</translation>
    </message>
    <message>
        <source>only one key file (-i) can be saved with a host</source>
        <translation>每个主机只能保存一个密钥文件（-i）</translation>
    </message>
    <message>
        <source>-o {option!r} is not Keyword=Value</source>
        <translation>-o {option!r} 不是 关键字=值 的形式</translation>
    </message>
    <message>
        <source>-o {option!r} has a value ssh refuses</source>
        <translation>-o {option!r} 的值会被 ssh 拒绝</translation>
    </message>
    <message>
        <source>only one -J (ProxyJump) is allowed; separate hops by commas</source>
        <translation>只能有一个 -J（ProxyJump）；多个跳板请用逗号分隔</translation>
    </message>
    <message>
        <source>The SSH command contains a password ({form}); LabGPU never takes a password from the command.</source>
        <translation>这条 SSH 命令里包含密码（{form}）；LabGPU 从不从命令中读取密码。</translation>
    </message>
    <message>
        <source>Remove it from the command and type it in the Password field (it is kept in the system keyring).</source>
        <translation>请把密码从命令中删掉，填到“密码”输入框里（它会保存在系统密钥环中）。</translation>
    </message>
    <message>
        <source>the command must start with ssh</source>
        <translation>命令必须以 ssh 开头</translation>
    </message>
    <message>
        <source>the command must start with ssh, not {word!r}</source>
        <translation>命令必须以 ssh 开头，而不是 {word!r}</translation>
    </message>
    <message>
        <source>no host given</source>
        <translation>没有给出主机</translation>
    </message>
    <message>
        <source>option -{opt} needs a value</source>
        <translation>选项 -{opt} 需要一个值</translation>
    </message>
    <message>
        <source>the jump host {host} is the destination itself</source>
        <translation>跳板主机 {host} 就是目标主机本身</translation>
    </message>
    <message>
        <source>option -{opt} is not supported</source>
        <translation>不支持选项 -{opt}</translation>
    </message>
    <message>
        <source>a remote command ({cmd!r}) cannot be saved with a host</source>
        <translation>不能把远程命令（{cmd!r}）随主机一起保存</translation>
    </message>
    <message>
        <source>ProxyCommand is not supported; use -J (ProxyJump)</source>
        <translation>不支持 ProxyCommand；请使用 -J（ProxyJump）</translation>
    </message>
    <message>
        <source>SSH hosts: add from an SSH command, list, remove, forward ports</source>
        <translation>SSH 主机：从 SSH 命令添加、列出、删除、端口转发</translation>
    </message>
    <message>
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>add a host: labgpu hosts add NAME "ssh -p PORT USER@HOST"</source>
        <translation>添加主机：labgpu hosts add NAME "ssh -p PORT USER@HOST"</translation>
    </message>
    <message>
        <source>a name for the host, e.g. gpu1</source>
        <translation>主机名称，例如 gpu1</translation>
    </message>
    <message>
        <source>the SSH command, e.g. "ssh -p 12345 root@region-1.example.com"</source>
        <translation>SSH 命令，例如 "ssh -p 12345 root@region-1.example.com"</translation>
    </message>
    <message>
        <source>the host key fingerprint your provider shows (required without a terminal; give it once more for each -J jump host seen for the first time)</source>
        <translation>云服务商显示的主机密钥指纹（没有终端时必填；每个首次遇到的 -J 跳板机再给一次）</translation>
    </message>
    <message>
        <source>read the login password from stdin (stored in the keyring)</source>
        <translation>从标准输入读取登录密码（存入密钥环）</translation>
    </message>
    <message>
        <source>read the -i key's passphrase from stdin (stored in the keyring)</source>
        <translation>从标准输入读取 -i 密钥的口令（存入密钥环）</translation>
    </message>
    <message>
        <source>bring this VPN profile up first; the host is its private address</source>
        <translation>先连接此 VPN 配置；主机地址为其内网地址</translation>
    </message>
    <message>
        <source>list hosts</source>
        <translation>列出主机</translation>
    </message>
    <message>
        <source>print JSON</source>
        <translation>输出 JSON</translation>
    </message>
    <message>
        <source>remove a host and its stored password/passphrase</source>
        <translation>删除主机及其保存的密码/口令</translation>
    </message>
    <message>
        <source>host name (labgpu hosts ls)</source>
        <translation>主机名称（labgpu hosts ls）</translation>
    </message>
    <message>
        <source>forget a host's key (after a provider-confirmed rebuild)</source>
        <translation>忘记主机的密钥（云服务商确认服务器已重建后）</translation>
    </message>
    <message>
        <source>accept a saved host's new key: the fingerprint your provider shows</source>
        <translation>接受已保存主机的新密钥：填云服务商显示的指纹</translation>
    </message>
    <message>
        <source>the host key fingerprint your provider shows; any other key is refused</source>
        <translation>云服务商显示的主机密钥指纹；其他密钥一律拒绝</translation>
    </message>
    <message>
        <source>open TensorBoard/Jupyter/PORT of a host on a local port</source>
        <translation>把主机的 TensorBoard/Jupyter/端口映射到本地端口</translation>
    </message>
    <message>
        <source>tensorboard (6006), jupyter (8888) or a remote port</source>
        <translation>tensorboard（6006）、jupyter（8888）或远程端口</translation>
    </message>
    <message>
        <source>local port 1–65535 (default: a free one)</source>
        <translation>本地端口 1–65535（默认：任一空闲端口）</translation>
    </message>
    <message>
        <source>open the URL in the browser</source>
        <translation>在浏览器中打开该 URL</translation>
    </message>
    <message>
        <source>The authenticity of host {display} can't be established.
{key_type} key fingerprint is {fingerprint}.</source>
        <translation>无法确认主机 {display} 的真实性。
{key_type} 密钥指纹为 {fingerprint}。</translation>
    </message>
    <message>
        <source>Accept this key and continue connecting (yes/no)? </source>
        <translation>接受此密钥并继续连接吗（yes/no）？</translation>
    </message>
    <message>
        <source>Use only one of --password-stdin and --passphrase-stdin.</source>
        <translation>--password-stdin 和 --passphrase-stdin 只能用其中一个。</translation>
    </message>
    <message>
        <source>Remove it from the command and give it on stdin instead: labgpu hosts add NAME "ssh …" --password-stdin (it is kept in the system keyring).</source>
        <translation>请把密码从命令中删掉，改为通过标准输入提供：labgpu hosts add NAME "ssh …" --password-stdin（它会保存在系统密钥环中）。</translation>
    </message>
    <message>
        <source>The host key of {host} was not accepted: {key_type} {fingerprint}.</source>
        <translation>{host} 的主机密钥未被接受：{key_type} {fingerprint}。</translation>
    </message>
    <message>
        <source>If this matches the fingerprint your provider shows, run the same 'labgpu hosts add' again with --fingerprint {fingerprint}.</source>
        <translation>如果它与服务商显示的指纹一致，请加上 --fingerprint {fingerprint} 再运行一次同样的 'labgpu hosts add'。</translation>
    </message>
    <message>
        <source>Added host {name} ({address}), host key {fingerprint}</source>
        <translation>已添加主机 {name}（{address}），主机密钥 {fingerprint}</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>ADDRESS</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>AUTH</source>
        <translation>认证</translation>
    </message>
    <message>
        <source>VPN</source>
        <translation>VPN</translation>
    </message>
    <message>
        <source>JUMP</source>
        <translation>跳板机</translation>
    </message>
    <message>
        <source>HOST KEY</source>
        <translation>主机密钥</translation>
    </message>
    <message>
        <source>SOURCE</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Removed host {name}</source>
        <translation>已删除主机 {name}</translation>
    </message>
    <message>
        <source>Forgot the host key of {name} ({join}). Accept the new key with 'labgpu hosts trust {name} --fingerprint SHA256:…' (the fingerprint your provider shows), or answer the question in the app</source>
        <translation>已忘记 {name} 的主机密钥（{join}）。用 'labgpu hosts trust {name} --fingerprint SHA256:…'（填云服务商显示的指纹）接受新密钥，或在应用中回答提示</translation>
    </message>
    <message>
        <source>No host key was known for {name}</source>
        <translation>{name} 没有已知的主机密钥</translation>
    </message>
    <message>
        <source>Trusted the host key of {name}: {fingerprint}</source>
        <translation>已信任 {name} 的主机密钥：{fingerprint}</translation>
    </message>
    <message>
        <source>note: nothing listens on 127.0.0.1:{remote_port} on {name} yet</source>
        <translation>注意：{name} 上的 127.0.0.1:{remote_port} 还没有程序在监听</translation>
    </message>
    <message>
        <source>Forwarding {url} -&gt; {name}:127.0.0.1:{remote_port} (Ctrl-C to stop)</source>
        <translation>正在转发 {url} -&gt; {name}:127.0.0.1:{remote_port}（按 Ctrl-C 停止）</translation>
    </message>
    <message>
        <source>LabGPU already trusts another key for {name}: {known}.</source>
        <translation>LabGPU 已经信任 {name} 的另一个密钥：{known}。</translation>
    </message>
    <message>
        <source>Only if your provider confirms the host was rebuilt: 'labgpu hosts forget-key {name}', then trust the new key.</source>
        <translation>只有在服务商确认该主机已重建时：运行 'labgpu hosts forget-key {name}'，然后信任新密钥。</translation>
    </message>
    <message>
        <source>The host name {name} does not resolve to an address ({why}).</source>
        <translation>主机名 {name} 无法解析为地址（{why}）。</translation>
    </message>
    <message>
        <source>Check the host name in the SSH command for a typo, or use the server's IP address. A name that exists only inside a VPN needs the host added with that VPN.</source>
        <translation>请检查 SSH 命令中的主机名是否拼错，或改用服务器的 IP 地址。只在 VPN 内才有的主机名，需要在添加主机时选择该 VPN。</translation>
    </message>
</context>
</TS>