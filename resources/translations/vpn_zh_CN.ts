<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>A stored VPN credential contains a line break.</source>
        <translation>保存的 VPN 凭据中含有换行符。</translation>
    </message>
    <message>
        <source>Enter the VPN credentials again.</source>
        <translation>请重新输入 VPN 凭据。</translation>
    </message>
    <message>
        <source>OpenVPN is not installed.</source>
        <translation>未安装 OpenVPN。</translation>
    </message>
    <message>
        <source>Install OpenVPN from openvpn.net (with its interactive service) and retry.</source>
        <translation>请从 openvpn.net 安装 OpenVPN（含交互式服务）后重试。</translation>
    </message>
    <message>
        <source>Install Tunnelblick (or 'brew install openvpn') and retry.</source>
        <translation>请安装 Tunnelblick（或执行 'brew install openvpn'）后重试。</translation>
    </message>
    <message>
        <source>Install it with 'sudo apt install openvpn' (or your distribution's package) and retry.</source>
        <translation>请用 'sudo apt install openvpn'（或所用发行版的软件包）安装后重试。</translation>
    </message>
    <message>
        <source>The OpenVPN interactive service is running: connect this profile with OpenVPN GUI (it talks to \\.\pipe\openvpn\service).</source>
        <translation>OpenVPN 交互式服务正在运行：请用 OpenVPN GUI 连接此配置（它通过 \\.\pipe\openvpn\service 与服务通信）。</translation>
    </message>
    <message>
        <source>Install OpenVPN with its interactive service (OpenVPNServiceInteractive) and connect this profile with OpenVPN GUI.</source>
        <translation>请安装带交互式服务（OpenVPNServiceInteractive）的 OpenVPN，并用 OpenVPN GUI 连接此配置。</translation>
    </message>
    <message>
        <source>On Windows LabGPU cannot create the VPN adapter itself.</source>
        <translation>在 Windows 上 LabGPU 无法自行创建 VPN 网卡。</translation>
    </message>
    <message>
        <source>On macOS a VPN needs a privileged helper.</source>
        <translation>在 macOS 上 VPN 需要特权辅助程序。</translation>
    </message>
    <message>
        <source>Open the .ovpn file with Tunnelblick and connect it there; LabGPU then reaches hosts through that tunnel.</source>
        <translation>请用 Tunnelblick 打开 .ovpn 文件并在其中连接；之后 LabGPU 会经由该隧道访问主机。</translation>
    </message>
    <message>
        <source>Your system will ask for your password to start OpenVPN.</source>
        <translation>系统会要求输入你的密码以启动 OpenVPN。</translation>
    </message>
    <message>
        <source>Starting OpenVPN needs administrator rights, and pkexec is not available.</source>
        <translation>启动 OpenVPN 需要管理员权限，但系统中没有 pkexec。</translation>
    </message>
    <message>
        <source>Install polkit ('sudo apt install pkexec'), or run 'sudo labgpu vpn up PROFILE', or import the profile into NetworkManager: 'nmcli connection import type openvpn file FILE.ovpn'.</source>
        <translation>请安装 polkit（'sudo apt install pkexec'），或运行 'sudo labgpu vpn up PROFILE'，或把配置导入 NetworkManager：'nmcli connection import type openvpn file FILE.ovpn'。</translation>
    </message>
    <message>
        <source>OpenVPN closed its control connection.</source>
        <translation>OpenVPN 关闭了它的控制连接。</translation>
    </message>
    <message>
        <source>See the VPN log for details.</source>
        <translation>详情请看 VPN 日志。</translation>
    </message>
    <message>
        <source>The VPN is being managed by another LabGPU window.</source>
        <translation>该 VPN 正由另一个 LabGPU 窗口管理。</translation>
    </message>
    <message>
        <source>Use that window, or close it and retry.</source>
        <translation>请使用那个窗口，或关闭它后重试。</translation>
    </message>
    <message>
        <source>The private key passphrase of VPN profile '{profile}' is wrong.</source>
        <translation>VPN 配置 '{profile}' 的私钥口令不正确。</translation>
    </message>
    <message>
        <source>Enter the key passphrase again (Credentials… on the VPN page, or 'labgpu vpn add {profile} FILE --key-passphrase-stdin').</source>
        <translation>请重新输入私钥口令（VPN 页面的“凭据…”，或 'labgpu vpn add {profile} FILE --key-passphrase-stdin'）。</translation>
    </message>
    <message>
        <source>OpenVPN asks for something LabGPU cannot answer: {prompt}.</source>
        <translation>OpenVPN 请求了 LabGPU 无法提供的信息：{prompt}。</translation>
    </message>
    <message>
        <source>Connect this profile with your VPN provider's own client.</source>
        <translation>请用 VPN 提供方自己的客户端连接此配置。</translation>
    </message>
    <message>
        <source>VPN profile '{profile}' needs credentials that are not stored: {what}.</source>
        <translation>VPN 配置 '{profile}' 需要的凭据尚未保存：{what}。</translation>
    </message>
    <message>
        <source>Enter it with Credentials… on the VPN page, or 'labgpu vpn add {profile} FILE.ovpn --username USER --password-stdin'.</source>
        <translation>请在 VPN 页面点“凭据…”输入，或运行 'labgpu vpn add {profile} FILE.ovpn --username USER --password-stdin'。</translation>
    </message>
    <message>
        <source>username</source>
        <translation>用户名</translation>
    </message>
    <message>
        <source>password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>private key passphrase</source>
        <translation>私钥口令</translation>
    </message>
    <message>
        <source>The VPN server refused the username or password of profile '{profile}'.</source>
        <translation>VPN 服务器拒绝了配置 '{profile}' 的用户名或密码。</translation>
    </message>
    <message>
        <source>Enter them again (Credentials… on the VPN page, or 'labgpu vpn add {profile} FILE.ovpn --username USER --password-stdin') and connect again.</source>
        <translation>请重新输入（VPN 页面的“凭据…”，或 'labgpu vpn add {profile} FILE.ovpn --username USER --password-stdin'）后再次连接。</translation>
    </message>
    <message>
        <source>OpenVPN stopped: {reason}.</source>
        <translation>OpenVPN 已停止：{reason}。</translation>
    </message>
    <message>
        <source>See the VPN log for details, fix the profile and connect again.</source>
        <translation>请查看 VPN 日志了解详情，修正配置后再次连接。</translation>
    </message>
    <message>
        <source>OpenVPN has no permission to create the tunnel device.</source>
        <translation>OpenVPN 没有创建隧道设备的权限。</translation>
    </message>
    <message>
        <source>Run LabGPU's VPN as root, allow it through pkexec, or import the profile into NetworkManager ('nmcli connection import type openvpn file FILE.ovpn'). See docs/vpn.md.</source>
        <translation>请以 root 运行 LabGPU 的 VPN、通过 pkexec 授权，或把配置导入 NetworkManager（'nmcli connection import type openvpn file FILE.ovpn'）。参见 docs/vpn.md。</translation>
    </message>
    <message>
        <source>OpenVPN refused the profile: {reason}.</source>
        <translation>OpenVPN 拒绝了此配置：{reason}。</translation>
    </message>
    <message>
        <source>Import a corrected .ovpn file from your VPN provider.</source>
        <translation>请导入 VPN 提供方给出的修正后的 .ovpn 文件。</translation>
    </message>
    <message>
        <source>OpenVPN could not unlock the private key.</source>
        <translation>OpenVPN 无法解锁私钥。</translation>
    </message>
    <message>
        <source>Enter the key passphrase again and connect again.</source>
        <translation>请重新输入私钥口令后再次连接。</translation>
    </message>
    <message>
        <source>There is no VPN profile named '{name}'.</source>
        <translation>没有名为 '{name}' 的 VPN 配置。</translation>
    </message>
    <message>
        <source>Import it first: 'labgpu vpn add {name} FILE.ovpn' (see 'labgpu vpn ls').</source>
        <translation>请先导入：'labgpu vpn add {name} FILE.ovpn'（可用 'labgpu vpn ls' 查看）。</translation>
    </message>
    <message>
        <source>The stored VPN profile '{name}' is damaged ({reason}).</source>
        <translation>保存的 VPN 配置 '{name}' 已损坏（{reason}）。</translation>
    </message>
    <message>
        <source>Import the .ovpn file again.</source>
        <translation>请重新导入 .ovpn 文件。</translation>
    </message>
    <message>
        <source>The folder {folder} is not safe for the VPN control socket.</source>
        <translation>文件夹 {folder} 不适合存放 VPN 控制套接字（不安全）。</translation>
    </message>
    <message>
        <source>Remove it, or set LABGPU_HOME to a shorter path.</source>
        <translation>请删除它，或把 LABGPU_HOME 设为更短的路径。</translation>
    </message>
    <message>
        <source>The stored VPN profile '{name}' does not pass LabGPU's checks: {reason}</source>
        <translation>已保存的 VPN 配置“{name}”未通过 LabGPU 的检查：{reason}</translation>
    </message>
    <message>
        <source>It was not started. Import the .ovpn file again ('labgpu vpn add {name} FILE.ovpn'), which shows the lines in question.</source>
        <translation>它没有被启动。请重新导入 .ovpn 文件（'labgpu vpn add {name} FILE.ovpn'），导入时会列出有问题的行。</translation>
    </message>
    <message>
        <source>Could not start OpenVPN: {reason}.</source>
        <translation>无法启动 OpenVPN：{reason}。</translation>
    </message>
    <message>
        <source>See {log} for the full log.</source>
        <translation>完整日志见 {log}。</translation>
    </message>
    <message>
        <source>OpenVPN did not open its control socket in time.</source>
        <translation>OpenVPN 未能及时打开控制套接字。</translation>
    </message>
    <message>
        <source>OpenVPN exited before the tunnel came up. Its last lines: {openvpn}</source>
        <translation>隧道建立之前 OpenVPN 就退出了。它最后输出的几行：{openvpn}</translation>
    </message>
    <message>
        <source>Fix what OpenVPN reports (see {log} for the full log) and connect again.</source>
        <translation>按 OpenVPN 报告的问题修正（完整日志见 {log}），然后重新连接。</translation>
    </message>
    <message>
        <source>OpenVPN did not answer on its control connection in time.</source>
        <translation>OpenVPN 没有及时在控制连接上应答。</translation>
    </message>
    <message>
        <source>See {log}, then connect again.</source>
        <translation>请查看 {log}，然后重新连接。</translation>
    </message>
    <message>
        <source>The VPN '{profile}' did not connect within {seconds:.0f} s (last state: {state}).</source>
        <translation>VPN '{profile}' 在 {seconds:.0f} 秒内未连上（最后状态：{state}）。</translation>
    </message>
    <message>
        <source>Check that the VPN server is reachable, then see {log}.</source>
        <translation>请确认 VPN 服务器可以访问，然后查看 {log}。</translation>
    </message>
    <message>
        <source>OpenVPN (process {pid}) of profile '{profile}' could not be stopped.</source>
        <translation>无法停止配置 '{profile}' 的 OpenVPN（进程 {pid}）。</translation>
    </message>
    <message>
        <source>It runs with other rights than LabGPU: stop it as administrator (sudo kill {pid}).</source>
        <translation>它以与 LabGPU 不同的权限运行：请以管理员身份停止它（sudo kill {pid}）。</translation>
    </message>
    <message>
        <source>This profile runs programs, loads libraries or writes files as administrator, or has lines LabGPU does not know to be safe: {lines}.</source>
        <translation>这个配置会以管理员身份运行程序、加载库或写入文件，或者包含 LabGPU 不能确认安全的行：{lines}。</translation>
    </message>
    <message>
        <source>Import it only if you trust who made it, and confirm explicitly (--allow-scripts on the command line), or remove those lines.</source>
        <translation>只有在你信任它的制作者时才导入，并明确确认（命令行加 --allow-scripts），或者删掉这些行。</translation>
    </message>
    <message>
        <source>'{name}' is not a valid VPN profile name.</source>
        <translation>'{name}' 不是有效的 VPN 配置名称。</translation>
    </message>
    <message>
        <source>Use 1–48 letters, digits, '.', '_' or '-', starting with a letter or digit.</source>
        <translation>请使用 1–48 个字母、数字、'.'、'_' 或 '-'，并以字母或数字开头。</translation>
    </message>
    <message>
        <source>&lt;connection&gt; blocks are not supported (line {line}).</source>
        <translation>不支持 &lt;connection&gt; 块（第 {line} 行）。</translation>
    </message>
    <message>
        <source>The profile uses '{directive}' (line {line}), which LabGPU does not run.</source>
        <translation>这个配置使用了“{directive}”（第 {line} 行），LabGPU 不会运行它。</translation>
    </message>
    <message>
        <source>The profile refers to '{file}' (line {line}), which cannot be read.</source>
        <translation>这个配置引用了“{file}”（第 {line} 行），但无法读取它。</translation>
    </message>
    <message>
        <source>the referenced file cannot be inlined</source>
        <translation>引用的文件无法内嵌</translation>
    </message>
    <message>
        <source>The profile is larger than 1 MiB; this is not an OpenVPN profile.</source>
        <translation>该文件大于 1 MiB，不是 OpenVPN 配置。</translation>
    </message>
    <message>
        <source>Choose the .ovpn file your VPN provider gave you.</source>
        <translation>请选择 VPN 提供方给你的 .ovpn 文件。</translation>
    </message>
    <message>
        <source>The profile contains binary data.</source>
        <translation>该配置包含二进制数据。</translation>
    </message>
    <message>
        <source>Check the .ovpn file; OpenVPN would refuse it too.</source>
        <translation>请检查 .ovpn 文件；OpenVPN 同样会拒绝它。</translation>
    </message>
    <message>
        <source>Ask your provider for a profile with plain 'remote' lines.</source>
        <translation>请向提供方索取使用普通 'remote' 行的配置。</translation>
    </message>
    <message>
        <source>line {line}: {text}</source>
        <translation>第 {line} 行：{text}</translation>
    </message>
    <message>
        <source>Use a client profile (one with 'client' and 'remote' lines).</source>
        <translation>请使用客户端配置（含 'client' 和 'remote' 行）。</translation>
    </message>
    <message>
        <source>Put that file next to the .ovpn file (or use a profile with inline blocks) and import again.</source>
        <translation>请把该文件放在 .ovpn 文件旁边（或使用内嵌证书的配置）后重新导入。</translation>
    </message>
    <message>
        <source>The profile has no 'remote' line: it does not say which server to connect to.</source>
        <translation>配置中没有 'remote' 行：没有说明要连接哪台服务器。</translation>
    </message>
    <message>
        <source>Choose the client profile your VPN provider gave you.</source>
        <translation>请选择 VPN 提供方给你的客户端配置。</translation>
    </message>
    <message>
        <source>Unknown inline block &lt;{tag}&gt; at line {line} of the profile.</source>
        <translation>配置第 {line} 行有未知的内嵌块 &lt;{tag}&gt;。</translation>
    </message>
    <message>
        <source>Cannot read '{file}': {reason}.</source>
        <translation>无法读取 '{file}'：{reason}。</translation>
    </message>
    <message>
        <source>Check the path and that the file is readable.</source>
        <translation>请检查路径以及文件是否可读。</translation>
    </message>
    <message>
        <source>The profile cannot be read at line {line} ({text}): {reason}.</source>
        <translation>配置第 {line} 行（{text}）无法读取：{reason}。</translation>
    </message>
    <message>
        <source>Fix that line or download the profile again from your VPN provider.</source>
        <translation>请修正这一行，或者从你的 VPN 提供方重新下载配置。</translation>
    </message>
    <message>
        <source>a backslash may only escape \, " or a space</source>
        <translation>反斜杠只能转义 \、" 或空格</translation>
    </message>
    <message>
        <source>a value is longer than 256 bytes</source>
        <translation>某个值超过了 256 字节</translation>
    </message>
    <message>
        <source>a double quote is not closed</source>
        <translation>双引号没有闭合</translation>
    </message>
    <message>
        <source>a single quote is not closed</source>
        <translation>单引号没有闭合</translation>
    </message>
    <message>
        <source>the line ends inside a value</source>
        <translation>这一行在某个值的中间结束了</translation>
    </message>
    <message>
        <source>it is not valid UTF-8 text</source>
        <translation>它不是有效的 UTF-8 文本</translation>
    </message>
    <message>
        <source>it contains binary data (a NUL byte)</source>
        <translation>它包含二进制数据（NUL 字节）</translation>
    </message>
    <message>
        <source>the line is 256 bytes or longer</source>
        <translation>这一行达到或超过了 256 字节</translation>
    </message>
    <message>
        <source>the inline block is never closed</source>
        <translation>内嵌块一直没有闭合</translation>
    </message>
    <message>
        <source>a value ends in a line break</source>
        <translation>某个值以换行结尾</translation>
    </message>
    <message>
        <source>the line would be 256 bytes or longer once rewritten</source>
        <translation>改写后这一行会达到或超过 256 字节</translation>
    </message>
    <message>
        <source>OpenVPN profiles: import, connect, disconnect, status</source>
        <translation>OpenVPN 配置：导入、连接、断开、状态</translation>
    </message>
    <message>
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>import an .ovpn profile (credentials go to the keyring)</source>
        <translation>导入 .ovpn 配置（凭据存入密钥环）</translation>
    </message>
    <message>
        <source>a name for the profile, e.g. lab</source>
        <translation>配置名称，例如 lab</translation>
    </message>
    <message>
        <source>the .ovpn file your lab or provider gave you</source>
        <translation>实验室或服务商给你的 .ovpn 文件</translation>
    </message>
    <message>
        <source>VPN username (the profile has auth-user-pass)</source>
        <translation>VPN 用户名（配置中有 auth-user-pass 时）</translation>
    </message>
    <message>
        <source>read the VPN password from stdin</source>
        <translation>从标准输入读取 VPN 密码</translation>
    </message>
    <message>
        <source>read the private key's passphrase from stdin (after the password, if both)</source>
        <translation>从标准输入读取私钥口令（两者都有时在密码之后）</translation>
    </message>
    <message>
        <source>accept a profile that runs programs (up/down scripts, plugins) as root</source>
        <translation>接受会以 root 身份运行程序（up/down 脚本、插件）的配置</translation>
    </message>
    <message>
        <source>connect; returns once the tunnel is up</source>
        <translation>连接；隧道建立后返回</translation>
    </message>
    <message>
        <source>profile name (labgpu vpn ls)</source>
        <translation>配置名称（labgpu vpn ls）</translation>
    </message>
    <message>
        <source>seconds to wait for CONNECTED (default 30)</source>
        <translation>等待 CONNECTED 的秒数（默认 30）</translation>
    </message>
    <message>
        <source>print JSON</source>
        <translation>输出 JSON</translation>
    </message>
    <message>
        <source>disconnect (and do not reconnect by itself)</source>
        <translation>断开（且不自动重连）</translation>
    </message>
    <message>
        <source>show the tunnel's state</source>
        <translation>显示隧道状态</translation>
    </message>
    <message>
        <source>list profiles and their state</source>
        <translation>列出配置及其状态</translation>
    </message>
    <message>
        <source>disconnect and remove a profile and its stored credentials</source>
        <translation>断开并删除配置及其保存的凭据</translation>
    </message>
    <message>
        <source>print the end of the profile's OpenVPN log</source>
        <translation>打印该配置 OpenVPN 日志的末尾</translation>
    </message>
    <message>
        <source>how many lines (default 40)</source>
        <translation>显示多少行（默认 40）</translation>
    </message>
    <message>
        <source>(internal, started by 'vpn up') answer OpenVPN's prompts while it runs</source>
        <translation>（内部使用，由 'vpn up' 启动）在 OpenVPN 运行时回答它的提示</translation>
    </message>
    <message>
        <source>--password-stdin needs --username.</source>
        <translation>--password-stdin 需要同时给出 --username。</translation>
    </message>
    <message>
        <source>Give the VPN username with --username USER.</source>
        <translation>请用 --username USER 给出 VPN 用户名。</translation>
    </message>
    <message>
        <source>--username needs a password.</source>
        <translation>--username 需要密码。</translation>
    </message>
    <message>
        <source>Add --password-stdin and pipe the password in.</source>
        <translation>请加上 --password-stdin 并通过管道传入密码。</translation>
    </message>
    <message>
        <source>Not stored yet: {join} — run 'labgpu vpn add {name} FILE.ovpn --username USER --password-stdin{value}' or use Credentials… on the VPN page</source>
        <translation>尚未保存：{join}。请运行 'labgpu vpn add {name} FILE.ovpn --username USER --password-stdin{value}'，或在 VPN 页面使用“凭据…”</translation>
    </message>
    <message>
        <source>PROFILE</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>ADDRESS</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>SERVER</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>CREDENTIALS</source>
        <translation>凭据</translation>
    </message>
    <message>
        <source>Removed VPN profile {profile}</source>
        <translation>已删除 VPN 配置 {profile}</translation>
    </message>
</context>
<context>
    <name>VpnCredentialsDialog</name>
    <message>
        <source>Import VPN profile</source>
        <translation>导入 VPN 配置</translation>
    </message>
    <message>
        <source>VPN credentials</source>
        <translation>VPN 凭据</translation>
    </message>
    <message>
        <source>Importing {file}
Server: {server}</source>
        <translation>正在导入 {file}
服务器：{server}</translation>
    </message>
    <message>
        <source>Credentials of VPN profile {name}. Leave a field empty to keep the stored value.</source>
        <translation>VPN 配置 {name} 的凭据。留空的字段保持已保存的值不变。</translation>
    </message>
    <message>
        <source>Profile name:</source>
        <translation>配置名称：</translation>
    </message>
    <message>
        <source>Username:</source>
        <translation>用户名：</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <source>Private key passphrase:</source>
        <translation>私钥口令：</translation>
    </message>
    <message>
        <source>Passwords are stored in your system keyring, never in a file.</source>
        <translation>密码保存在系统密钥环中，绝不写入文件。</translation>
    </message>
    <message>
        <source>This profile needs no password: it uses its certificate only.</source>
        <translation>此配置不需要密码：只使用证书。</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Use 1–48 letters, digits, '.', '_' or '-' for the name.</source>
        <translation>名称请使用 1–48 个字母、数字、'.'、'_' 或 '-'。</translation>
    </message>
    <message>
        <source>A profile named {name} exists already; choose another name.</source>
        <translation>已有名为 {name} 的配置，请换一个名称。</translation>
    </message>
    <message>
        <source>Enter both the username and the password (or neither, to enter them later).</source>
        <translation>请同时输入用户名和密码（或都不填，稍后再输入）。</translation>
    </message>
</context>
<context>
    <name>VpnPage</name>
    <message>
        <source>Connected</source>
        <translation>已连接</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>Connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>Resolving server…</source>
        <translation>正在解析服务器…</translation>
    </message>
    <message>
        <source>Waiting for the server…</source>
        <translation>正在等待服务器…</translation>
    </message>
    <message>
        <source>Authenticating…</source>
        <translation>正在认证…</translation>
    </message>
    <message>
        <source>Waiting for approval…</source>
        <translation>正在等待批准…</translation>
    </message>
    <message>
        <source>Getting configuration…</source>
        <translation>正在获取配置…</translation>
    </message>
    <message>
        <source>Assigning address…</source>
        <translation>正在分配地址…</translation>
    </message>
    <message>
        <source>Adding routes…</source>
        <translation>正在添加路由…</translation>
    </message>
    <message>
        <source>Reconnecting…</source>
        <translation>正在重连…</translation>
    </message>
    <message>
        <source>Disconnecting…</source>
        <translation>正在断开…</translation>
    </message>
    <message>
        <source>Needs credentials</source>
        <translation>需要凭据</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>VPN</source>
        <translation>VPN</translation>
    </message>
    <message>
        <source>VPN tunnels</source>
        <translation>VPN 隧道</translation>
    </message>
    <message>
        <source>Reach lab and cloud servers on their private network. LabGPU runs OpenVPN for you, keeps passwords in the keyring and reconnects by itself unless you disconnect.</source>
        <translation>通过私有网络访问实验室和云端服务器。LabGPU 替你运行 OpenVPN，把密码保存在密钥环中，并在断线后自动重连（除非你主动断开）。</translation>
    </message>
    <message>
        <source>Import .ovpn…</source>
        <translation>导入 .ovpn…</translation>
    </message>
    <message>
        <source>Import an OpenVPN profile (Ctrl+O)</source>
        <translation>导入 OpenVPN 配置（Ctrl+O）</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Bring the selected tunnel up (Ctrl+Enter)</source>
        <translation>建立所选隧道（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>Disconnect</source>
        <translation>断开</translation>
    </message>
    <message>
        <source>Take the tunnel down; it stays down (Ctrl+Shift+D)</source>
        <translation>断开隧道，且不会自动重连（Ctrl+Shift+D）</translation>
    </message>
    <message>
        <source>Credentials…</source>
        <translation>凭据…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove the profile and its stored passwords (Delete)</source>
        <translation>删除此配置及其保存的密码（Delete）</translation>
    </message>
    <message>
        <source>No VPN profiles yet.
Import the .ovpn file your lab or VPN provider gave you (Ctrl+O).</source>
        <translation>还没有 VPN 配置。
请导入实验室或 VPN 提供方给你的 .ovpn 文件（Ctrl+O）。</translation>
    </message>
    <message>
        <source>State changes</source>
        <translation>状态变化</translation>
    </message>
    <message>
        <source> — address {ip}, server {server}</source>
        <translation> — 地址 {ip}，服务器 {server}</translation>
    </message>
    <message>
        <source>VPN {name}: {state}</source>
        <translation>VPN {name}：{state}</translation>
    </message>
    <message>
        <source>&lt;b&gt;{name}&lt;/b&gt;: {state}</source>
        <translation>&lt;b&gt;{name}&lt;/b&gt;：{state}</translation>
    </message>
    <message>
        <source>since {time}</source>
        <translation>自 {time} 起</translation>
    </message>
    <message>
        <source>username and password</source>
        <translation>用户名和密码</translation>
    </message>
    <message>
        <source>key passphrase</source>
        <translation>私钥口令</translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>connects with {what}</source>
        <translation>连接时使用{what}</translation>
    </message>
    <message>
        <source>&lt;span style='color:#b26a00'&gt;runs scripts (you allowed it)&lt;/span&gt;</source>
        <translation>&lt;span style='color:#b26a00'&gt;会运行脚本（你已允许）&lt;/span&gt;</translation>
    </message>
    <message>
        <source>log: {path}</source>
        <translation>日志：{path}</translation>
    </message>
    <message>
        <source>Import OpenVPN profile</source>
        <translation>导入 OpenVPN 配置</translation>
    </message>
    <message>
        <source>OpenVPN profiles (*.ovpn *.conf);;All files (*)</source>
        <translation>OpenVPN 配置 (*.ovpn *.conf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>This profile runs programs</source>
        <translation>此配置会运行程序</translation>
    </message>
    <message>
        <source>{file} has lines that run programs, load libraries or write files as administrator when it connects, or that LabGPU does not know to be safe:

{lines}

Import it only if you trust who made it.</source>
        <translation>{file} 里有连接时会以管理员身份运行程序、加载库或写入文件的行，或者 LabGPU 不能确认安全的行：

{lines}

只有在你信任它的制作者时才导入。</translation>
    </message>
    <message>
        <source>Import anyway</source>
        <translation>仍然导入</translation>
    </message>
    <message>
        <source>{name}: profile imported</source>
        <translation>{name}：配置已导入</translation>
    </message>
    <message>
        <source>Remove VPN profile</source>
        <translation>删除 VPN 配置</translation>
    </message>
    <message>
        <source>Remove {name}? Its tunnel is disconnected and its stored passwords are deleted from the keyring.</source>
        <translation>删除 {name}？其隧道将被断开，保存的密码也会从密钥环中删除。</translation>
    </message>
    <message>
        <source>OpenVPN ({path}) runs with administrator rights.</source>
        <translation>OpenVPN（{path}）以管理员权限运行。</translation>
    </message>
    <message>
        <source>OpenVPN ({path}) has the network capability it needs.</source>
        <translation>OpenVPN（{path}）已具备所需的网络权限。</translation>
    </message>
    <message>
        <source>Connecting asks for your password (pkexec) to start OpenVPN ({path}).</source>
        <translation>连接时会要求输入你的密码（pkexec）以启动 OpenVPN（{path}）。</translation>
    </message>
    <message>
        <source>OpenVPN runs in network namespace {ns} (test mode).</source>
        <translation>OpenVPN 在网络命名空间 {ns} 中运行（测试模式）。</translation>
    </message>
</context>
<context>
    <name>VpnProfilesModel</name>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Tunnel address</source>
        <translation>隧道地址</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation>凭据</translation>
    </message>
    <message>
        <source>certificate only</source>
        <translation>仅证书</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <source>stored in keyring</source>
        <translation>已存入密钥环</translation>
    </message>
</context>
</TS>