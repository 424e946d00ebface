<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>ErrorReporter</name>
    <message>
        <source>LabGPU — something went wrong</source>
        <translation>LabGPU — 出错了</translation>
    </message>
    <message>
        <source>This is a bug in LabGPU. The details are in the log file; the app keeps running.</source>
        <translation>这是 LabGPU 的一个缺陷。详细信息已写入日志文件，应用会继续运行。</translation>
    </message>
    <message>
        <source>(no copy could be made)</source>
        <translation>（无法保留副本）</translation>
    </message>
    <message>
        <source>LabGPU's database was damaged ({reason}) and has been replaced by a fresh, empty one. Your saved hosts, sync pairs and history, cloud account entries and the instance ledger are not in it; secrets in the keyring are untouched.</source>
        <translation>LabGPU 的数据库已损坏（{reason}），已换成一个全新的空数据库。你保存的主机、同步配对和历史、云账号条目以及实例账本都不在新库中；密钥环里的密钥没有受影响。</translation>
    </message>
    <message>
        <source>The damaged file is kept as {copy}. Add your hosts and accounts again; keep the copy if you need to recover something from it.</source>
        <translation>损坏的文件已保留为 {copy}。请重新添加你的主机和账号；如需从中找回内容，请保留这个副本。</translation>
    </message>
    <message>
        <source>Some settings had wrong values and were reset to their defaults: {fields}.</source>
        <translation>部分设置的值有误，已恢复为默认值：{fields}。</translation>
    </message>
    <message>
        <source>Your other settings are kept. The original file is kept as {copy}.</source>
        <translation>你的其他设置保持不变。原始文件已保留为 {copy}。</translation>
    </message>
    <message>
        <source>Your settings were written by a newer LabGPU ({reason}). They are used read-only; changes you make now are not saved.</source>
        <translation>你的设置由更新版本的 LabGPU 写入（{reason}）。现在以只读方式使用；你此时所做的更改不会被保存。</translation>
    </message>
    <message>
        <source>Update LabGPU to the newest version.</source>
        <translation>请把 LabGPU 更新到最新版本。</translation>
    </message>
    <message>
        <source>The settings file could not be read ({reason}); LabGPU uses the default settings.</source>
        <translation>无法读取设置文件（{reason}）；LabGPU 将使用默认设置。</translation>
    </message>
    <message>
        <source>The unreadable file is kept as {copy}.</source>
        <translation>无法读取的文件已保留为 {copy}。</translation>
    </message>
    <message>
        <source>LabGPU — damaged data set aside</source>
        <translation>LabGPU — 已移开损坏的数据</translation>
    </message>
</context>
<context>
    <name>FirstRunDialog</name>
    <message>
        <source>Compare GPU prices across clouds. No account needed.</source>
        <translation>比较各家云的 GPU 价格。无需账号。</translation>
    </message>
    <message>
        <source>Describe your job; get a GPU, a region and a cost estimate. No account needed.</source>
        <translation>描述你的任务，得到推荐的 GPU、地域和费用估算。无需账号。</translation>
    </message>
    <message>
        <source>Your cloud machines: start, stop, connect, what they cost.</source>
        <translation>你的云主机：启动、停止、连接，以及已花费多少。</translation>
    </message>
    <message>
        <source>Cloud API keys, kept in the system keyring.</source>
        <translation>云 API 密钥，保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>Any SSH server: your lab's or a rented one. No account needed.</source>
        <translation>任意 SSH 服务器：实验室的或租来的。无需账号。</translation>
    </message>
    <message>
        <source>Keep a folder in step with a server: code up, results down.</source>
        <translation>让文件夹与服务器保持同步：上传代码，取回结果。</translation>
    </message>
    <message>
        <source>Live GPU use; guards that stop or report idle machines.</source>
        <translation>实时 GPU 使用情况；守护会提醒或停止空闲的机器。</translation>
    </message>
    <message>
        <source>Connect to a lab network with OpenVPN.</source>
        <translation>用 OpenVPN 连接实验室网络。</translation>
    </message>
    <message>
        <source>Language, currency, guards, tray; this welcome again.</source>
        <translation>语言、货币、守护、托盘；再次显示本欢迎向导。</translation>
    </message>
    <message>
        <source>Welcome to LabGPU</source>
        <translation>欢迎使用 LabGPU</translation>
    </message>
    <message>
        <source>LabGPU compares cloud GPU prices, rents and watches GPU machines, and works with your own SSH servers. Three short steps: the language, a cloud account (optional), and a tour.</source>
        <translation>LabGPU 比较云 GPU 价格，租用并看管 GPU 机器，也能管理你自己的 SSH 服务器。只需三小步：选择语言、添加云账号（可选）、浏览各页面。</translation>
    </message>
    <message>
        <source>The window changes at once. You can change it later in Settings.</source>
        <translation>窗口会立即切换。之后可在“设置”中更改。</translation>
    </message>
    <message>
        <source>A cloud account (optional)</source>
        <translation>云账号（可选）</translation>
    </message>
    <message>
        <source>To rent GPU machines, LabGPU needs the API keys of a cloud account ({clouds}). They are kept in your system keyring.</source>
        <translation>要租用 GPU 机器，LabGPU 需要一个云账号（{clouds}）的 API 密钥。密钥保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>Add a cloud account now…</source>
        <translation>现在添加云账号…</translation>
    </message>
    <message>
        <source>Skip: no account for now</source>
        <translation>跳过：暂不添加账号</translation>
    </message>
    <message>
        <source>Without an account you can still compare GPU offers, use the advisor and its cost estimator, and add any SSH server on the Hosts page (then sync, monitor and guard it).</source>
        <translation>没有账号也可以比较 GPU 报价、使用选型顾问和费用估算，并在“主机”页添加任意 SSH 服务器（然后同步、监控并守护它）。</translation>
    </message>
    <message>
        <source>A short tour</source>
        <translation>页面一览</translation>
    </message>
    <message>
        <source>The pages on the left, one line each. Open one to start there.</source>
        <translation>左侧各页面，每页一句说明。点“打开”即从该页开始。</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Go to {page} and close this welcome</source>
        <translation>转到“{page}”并关闭欢迎向导</translation>
    </message>
    <message>
        <source>Skip</source>
        <translation>跳过</translation>
    </message>
    <message>
        <source>Close the welcome (Esc). Settings can show it again.</source>
        <translation>关闭欢迎向导（Esc）。可在“设置”中再次显示。</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Step {n} of {total}</source>
        <translation>第 {n} 步，共 {total} 步</translation>
    </message>
    <message>
        <source>Finish</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一步</translation>
    </message>
</context>
<context>
    <name>LabGPU</name>
    <message>
        <source>Install and start a Secret Service keyring, e.g. 'sudo apt install gnome-keyring' (or KWallet on KDE), log in again, then retry. LabGPU never stores secrets in plain files.</source>
        <translation>请安装并启动 Secret Service 密钥环，例如 'sudo apt install gnome-keyring'（KDE 下可用 KWallet），重新登录后再试。LabGPU 从不把密钥存进普通文件。</translation>
    </message>
    <message>
        <source>Unlock the system keychain / Credential Manager and retry.</source>
        <translation>请解锁系统密钥环 / 凭据管理器后重试。</translation>
    </message>
    <message>
        <source>No secure keyring is available on this computer ({backend}).</source>
        <translation>此电脑上没有可用的安全密钥环（{backend}）。</translation>
    </message>
    <message>
        <source>PYTHON_KEYRING_BACKEND={chosen} chooses it: unset it and retry.</source>
        <translation>这是 PYTHON_KEYRING_BACKEND={chosen} 指定的：请取消设置后重试。</translation>
    </message>
    <message>
        <source>The keyring ({provider}) is installed, but DBUS_SESSION_BUS_ADDRESS is not set, so LabGPU cannot reach it.</source>
        <translation>密钥环（{provider}）已安装，但未设置 DBUS_SESSION_BUS_ADDRESS，LabGPU 无法连接到它。</translation>
    </message>
    <message>
        <source>Your login session has a bus: export DBUS_SESSION_BUS_ADDRESS=unix:path={bus}, then retry.</source>
        <translation>你的登录会话有可用的总线：执行 export DBUS_SESSION_BUS_ADDRESS=unix:path={bus} 后重试。</translation>
    </message>
    <message>
        <source>Start a D-Bus session with the keyring unlocked and use LabGPU inside it: {command} (the first time, the password you type creates the keyring).</source>
        <translation>启动一个已解锁密钥环的 D-Bus 会话，并在其中使用 LabGPU：{command}（第一次运行时，输入的密码会用来创建密钥环）。</translation>
    </message>
    <message>
        <source>Start LabGPU from your desktop session, where the keyring runs.</source>
        <translation>请在运行着密钥环的桌面会话中启动 LabGPU。</translation>
    </message>
    <message>
        <source>The keyring ({provider}) is installed, but there is no D-Bus session here to reach it (as over SSH, in WSL or on a virtual display).</source>
        <translation>密钥环（{provider}）已安装，但这里没有可连接它的 D-Bus 会话（例如通过 SSH、在 WSL 中或在虚拟显示上）。</translation>
    </message>
    <message>
        <source>Start and unlock it in this session (bash): {command}</source>
        <translation>在此会话中启动并解锁它（bash）：{command}</translation>
    </message>
    <message>
        <source>Start it from your desktop session, then retry.</source>
        <translation>请在桌面会话中启动它，然后重试。</translation>
    </message>
    <message>
        <source>The keyring ({provider}) is installed but not running in this D-Bus session.</source>
        <translation>密钥环（{provider}）已安装，但没有在此 D-Bus 会话中运行。</translation>
    </message>
    <message>
        <source>The keyring is locked (or not created yet), and without a desktop nothing can ask for its password.</source>
        <translation>密钥环已锁定（或尚未创建），而没有桌面就无法弹出窗口询问密码。</translation>
    </message>
    <message>
        <source>Unlock it in this session (bash): {command} (the first time, the password you type creates the keyring).</source>
        <translation>在此会话中解锁（bash）：{command}（第一次运行时，输入的密码会用来创建密钥环）。</translation>
    </message>
    <message>
        <source>The keyring is locked.</source>
        <translation>密钥环已锁定。</translation>
    </message>
    <message>
        <source>Unlock your keyring (log in again or open Passwords and Keys) and retry.</source>
        <translation>请解锁密钥环（重新登录或打开“密码和密钥”）后重试。</translation>
    </message>
    <message>
        <source>The keyring refused the request ({kind}).</source>
        <translation>密钥环拒绝了请求（{kind}）。</translation>
    </message>
    <message>
        <source>Check that your keyring is unlocked and retry.</source>
        <translation>请确认密钥环已解锁，然后重试。</translation>
    </message>
    <message>
        <source>The database {path} is damaged ({why}).</source>
        <translation>数据库 {path} 已损坏（{why}）。</translation>
    </message>
    <message>
        <source>Run the command again (or restart LabGPU): the damaged file is set aside and kept, and LabGPU starts with a fresh database.</source>
        <translation>请重新运行命令（或重启 LabGPU）：损坏的文件会被移开并保留，LabGPU 将使用一个全新的数据库。</translation>
    </message>
    <message>
        <source>The database {path} is damaged ({why}) and could not be moved aside ({error}).</source>
        <translation>数据库 {path} 已损坏（{why}），且无法移开（{error}）。</translation>
    </message>
    <message>
        <source>Move or delete the file yourself (keep a copy), then start LabGPU again.</source>
        <translation>请自行移动或删除该文件（先保留一份副本），然后重新启动 LabGPU。</translation>
    </message>
    <message>
        <source>undated</source>
        <translation>无日期</translation>
    </message>
    <message>
        <source>1 USD = {rate} CNY ({source}, {date})</source>
        <translation>1 美元 = {rate} 人民币（{source}，{date}）</translation>
    </message>
    <message>
        <source>No {what} on stdin.</source>
        <translation>标准输入中没有{what}。</translation>
    </message>
    <message>
        <source>Pipe it in, e.g. printf '%s\n' "$PW" | labgpu {command} …</source>
        <translation>请用管道传入，例如 printf '%s\n' "$PW" | labgpu {command} …</translation>
    </message>
    <message>
        <source>{value!r} is not a command of '{prog}'; its commands: {names}.</source>
        <translation>{value!r} 不是 '{prog}' 的命令；它的命令：{names}。</translation>
    </message>
    <message>
        <source>{value!r} is not a command of '{prog}'.</source>
        <translation>{value!r} 不是 '{prog}' 的命令。</translation>
    </message>
    <message>
        <source>{value!r} is not one of: {choices}.</source>
        <translation>{value!r} 不在可选范围内：{choices}。</translation>
    </message>
    <message>
        <source>Did you mean {names}?</source>
        <translation>你是不是想输入 {names}？</translation>
    </message>
    <message>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <source>Run '{command} --help' to list its commands.</source>
        <translation>运行 '{command} --help' 查看它的子命令。</translation>
    </message>
    <message>
        <source>Run '{command} --help' to see its arguments and options.</source>
        <translation>运行 '{command} --help' 查看它的参数和选项。</translation>
    </message>
    <message>
        <source>Keyring</source>
        <translation>密钥环</translation>
    </message>
    <message>
        <source>Display</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>The window needs a desktop. Here, use the command line ('{cli} --help'); to see the window over SSH, connect with 'ssh -X'.</source>
        <translation>窗口需要桌面环境。在这里请使用命令行（'{cli} --help'）；若要通过 SSH 使用窗口，请用 'ssh -X' 连接。</translation>
    </message>
    <message>
        <source>Check that the X server (or the 'ssh -X' connection) is still running, or unset {variable} and use the command line ('{cli} --help').</source>
        <translation>请确认 X 服务器（或 'ssh -X' 连接）仍在运行，或者取消设置 {variable} 并使用命令行（'{cli} --help'）。</translation>
    </message>
    <message>
        <source>none: QT_QPA_PLATFORM={platform} draws the window off screen</source>
        <translation>无：QT_QPA_PLATFORM={platform} 会在屏幕外绘制窗口</translation>
    </message>
    <message>
        <source>Unset QT_QPA_PLATFORM to see the window.</source>
        <translation>取消设置 QT_QPA_PLATFORM 即可看到窗口。</translation>
    </message>
    <message>
        <source>X11 display {name}</source>
        <translation>X11 显示 {name}</translation>
    </message>
    <message>
        <source>Wayland display {name}</source>
        <translation>Wayland 显示 {name}</translation>
    </message>
    <message>
        <source>Qt platform {name} (QT_QPA_PLATFORM)</source>
        <translation>Qt 平台 {name}（QT_QPA_PLATFORM）</translation>
    </message>
    <message>
        <source>the desktop</source>
        <translation>桌面</translation>
    </message>
    <message>
        <source>{where}: Qt opens it ({platform}, {size})</source>
        <translation>{where}：Qt 可以打开（{platform}，{size}）</translation>
    </message>
    <message>
        <source>{where}: Qt opens it ({platform})</source>
        <translation>{where}：Qt 可以打开（{platform}）</translation>
    </message>
    <message>
        <source>{where}: Qt cannot open it: {error}</source>
        <translation>{where}：Qt 无法打开：{error}</translation>
    </message>
    <message>
        <source>Install the libraries Qt lacks ({libraries}), on Debian/Ubuntu: sudo apt install {packages}</source>
        <translation>请安装 Qt 缺少的库（{libraries}），Debian/Ubuntu 上：sudo apt install {packages}</translation>
    </message>
    <message>
        <source>Run 'python3 packaging/bootstrap.py app' from a checkout (it installs Qt's system libraries), or use the command line ('{cli} --help').</source>
        <translation>请在源码目录中运行 'python3 packaging/bootstrap.py app'（它会安装 Qt 需要的系统库），或使用命令行（'{cli} --help'）。</translation>
    </message>
    <message>
        <source>SSH fast paths</source>
        <translation>SSH 快速通道</translation>
    </message>
    <message>
        <source>on: {reason}</source>
        <translation>开启：{reason}</translation>
    </message>
    <message>
        <source>off: {reason}</source>
        <translation>关闭：{reason}</translation>
    </message>
    <message>
        <source>Unset {env} for faster transfers.</source>
        <translation>取消设置 {env} 可加快传输。</translation>
    </message>
    <message>
        <source>Transfers work but are slower. Install paramiko {known} (installed: {version}), e.g. pip install 'paramiko=={known}'.</source>
        <translation>传输可以进行，但较慢。请安装 paramiko {known}（已安装：{version}），例如 pip install 'paramiko=={known}'。</translation>
    </message>
    <message>
        <source>OpenVPN</source>
        <translation>OpenVPN</translation>
    </message>
    <message>
        <source>OpenVPN privileges</source>
        <translation>OpenVPN 权限</translation>
    </message>
    <message>
        <source>Only hosts reached through a VPN need it.</source>
        <translation>只有经由 VPN 连接的主机需要它。</translation>
    </message>
    <message>
        <source>not checked: OpenVPN is not installed</source>
        <translation>未检查：未安装 OpenVPN</translation>
    </message>
    <message>
        <source>runs as root</source>
        <translation>以 root 身份运行</translation>
    </message>
    <message>
        <source>the binary has cap_net_admin</source>
        <translation>该程序具有 cap_net_admin 能力</translation>
    </message>
    <message>
        <source>started through pkexec (asks for your password)</source>
        <translation>通过 pkexec 启动（会询问你的密码）</translation>
    </message>
    <message>
        <source>started in the test network namespace</source>
        <translation>在测试网络命名空间中启动</translation>
    </message>
    <message>
        <source>nvidia-smi (this computer)</source>
        <translation>nvidia-smi（本机）</translation>
    </message>
    <message>
        <source>not found here; only GPU hosts need it</source>
        <translation>本机未找到；只有 GPU 主机需要它</translation>
    </message>
    <message>
        <source>On a GPU host, install the NVIDIA driver (it brings nvidia-smi).</source>
        <translation>在 GPU 主机上请安装 NVIDIA 驱动（其中包含 nvidia-smi）。</translation>
    </message>
    <message>
        <source>{path} (not writable)</source>
        <translation>{path}（不可写）</translation>
    </message>
    <message>
        <source>Make {folder} writable for this user, or set LABGPU_HOME elsewhere.</source>
        <translation>请让当前用户可写入 {folder}，或将 LABGPU_HOME 设到别处。</translation>
    </message>
    <message>
        <source>{path} (not created yet)</source>
        <translation>{path}（尚未创建）</translation>
    </message>
    <message>
        <source>Settings file</source>
        <translation>设置文件</translation>
    </message>
    <message>
        <source>{path} (cannot be read)</source>
        <translation>{path}（无法读取）</translation>
    </message>
    <message>
        <source>LabGPU keeps a copy of it and starts with defaults; check Settings.</source>
        <translation>LabGPU 会保留一份副本并以默认设置启动；请检查设置。</translation>
    </message>
    <message>
        <source>Data folder</source>
        <translation>数据文件夹</translation>
    </message>
    <message>
        <source>Log file</source>
        <translation>日志文件</translation>
    </message>
    <message>
        <source>Clock</source>
        <translation>时钟</translation>
    </message>
    <message>
        <source>not compared yet: no cloud has answered LabGPU on this computer</source>
        <translation>尚未比对：这台电脑上还没有云平台回应过 LabGPU</translation>
    </message>
    <message>
        <source>within {seconds} s of {cloud}'s clock</source>
        <translation>与 {cloud} 的时钟相差不超过 {seconds} 秒</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>CHECK</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>STATUS</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>DETAIL</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>NEXT STEP</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Compare, rent, sync with and watch cloud GPUs. Without a command: the desktop app.</source>
        <translation>比较、租用、同步和监控云 GPU。不带命令时启动桌面应用。</translation>
    </message>
    <message>
        <source>Run 'labgpu COMMAND --help' for a command's options. The language follows LANG (or --lang zh_CN / --lang en).</source>
        <translation>运行 'labgpu COMMAND --help' 查看某个命令的选项。语言跟随 LANG（或用 --lang zh_CN / --lang en 指定）。</translation>
    </message>
    <message>
        <source>show the version and exit</source>
        <translation>显示版本号并退出</translation>
    </message>
    <message>
        <source>render the main window to a PNG and exit</source>
        <translation>把主窗口渲染为 PNG 后退出</translation>
    </message>
    <message>
        <source>page to show (with --screenshot or at start)</source>
        <translation>要显示的页面（配合 --screenshot 或启动时）</translation>
    </message>
    <message>
        <source>interface language for this run</source>
        <translation>本次运行的界面语言</translation>
    </message>
    <message>
        <source>window size for --screenshot, WxH</source>
        <translation>--screenshot 的窗口大小，宽x高</translation>
    </message>
    <message>
        <source>show the welcome (language, cloud account, tour) even if it was seen</source>
        <translation>显示欢迎向导（语言、云账号、导览），即使已看过</translation>
    </message>
    <message>
        <source>with --first-run: the step to open at, 1-3 (for --screenshot)</source>
        <translation>配合 --first-run：打开的步骤，1-3（用于 --screenshot）</translation>
    </message>
    <message>
        <source>start in the system tray only (the cost monitor); the window opens from its menu</source>
        <translation>只在系统托盘中启动（费用监控）；窗口可从托盘菜单打开</translation>
    </message>
    <message>
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>已中断</translation>
    </message>
    <message>
        <source>A connection closed unexpectedly: {error} — see the log and retry.</source>
        <translation>连接意外关闭：{error}。请查看日志后重试。</translation>
    </message>
    <message>
        <source>There is no graphical display here: DISPLAY and WAYLAND_DISPLAY are not set (as over SSH, in WSL without WSLg or in a container).</source>
        <translation>这里没有图形显示：DISPLAY 和 WAYLAND_DISPLAY 都未设置（例如通过 SSH 登录、在没有 WSLg 的 WSL 中或在容器里）。</translation>
    </message>
    <message>
        <source>The display {name} ({variable}) does not answer, or refuses this user.</source>
        <translation>显示 {name}（{variable}）没有响应，或拒绝了当前用户。</translation>
    </message>
    <message>
        <source>LabGPU cannot open its window.</source>
        <translation>LabGPU 无法打开窗口。</translation>
    </message>
    <message>
        <source>Everything the window does is also a command: '{cli} --help' lists them, '{cli} doctor' checks this computer.</source>
        <translation>窗口里的每项功能都有对应的命令：'{cli} --help' 列出全部命令，'{cli} doctor' 检查这台电脑的环境。</translation>
    </message>
    <message>
        <source>To see the window, start LabGPU on a computer with a desktop, or connect with 'ssh -X' (X11 forwarding).</source>
        <translation>要使用窗口，请在有桌面的电脑上启动 LabGPU，或用 'ssh -X'（X11 转发）连接。</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>CNY (¥)</source>
        <translation>人民币 (¥)</translation>
    </message>
    <message>
        <source>USD ($)</source>
        <translation>美元 ($)</translation>
    </message>
    <message>
        <source>Display &amp;currency:</source>
        <translation>显示货币(&amp;C)：</translation>
    </message>
    <message>
        <source>bundled default</source>
        <translation>内置默认值</translation>
    </message>
    <message>
        <source>Your own USD→CNY rate for display. 0 uses the bundled rate.</source>
        <translation>自定义的美元→人民币显示汇率。0 表示使用内置汇率。</translation>
    </message>
    <message>
        <source>USD→CNY &amp;rate:</source>
        <translation>美元→人民币汇率(&amp;R)：</translation>
    </message>
    <message>
        <source>Default spot price cap, as a share of the on-demand price.</source>
        <translation>竞价实例默认出价上限，占按量价格的比例。</translation>
    </message>
    <message>
        <source>Spot &amp;bid cap:</source>
        <translation>竞价出价上限(&amp;B)：</translation>
    </message>
    <message>
        <source>Show the welcome tour again</source>
        <translation>再次显示欢迎向导</translation>
    </message>
    <message>
        <source>The language, a cloud account (optional) and a tour of the pages</source>
        <translation>选择语言、添加云账号（可选）并浏览各页面</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Settings:</source>
        <translation>设置：</translation>
    </message>
    <message>
        <source>Data:</source>
        <translation>数据：</translation>
    </message>
    <message>
        <source>Logs:</source>
        <translation>日志：</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Guards and tray</source>
        <translation>守护与托盘</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>notify me</source>
        <translation>通知我</translation>
    </message>
    <message>
        <source>pull checkpoints, then stop it</source>
        <translation>拉取检查点，然后停止</translation>
    </message>
    <message>
        <source>every GPU below</source>
        <translation>每块 GPU 低于</translation>
    </message>
    <message>
        <source>for</source>
        <translation>持续</translation>
    </message>
    <message>
        <source>New guards, idle:</source>
        <translation>新守护的空闲规则：</translation>
    </message>
    <message>
        <source>Servers of the Hosts page have no cloud API: their guards only notify.</source>
        <translation>主机页面中的服务器没有云 API：它们的守护只会通知。</translation>
    </message>
    <message>
        <source>Keep LabGPU in the tray when the window is closed while instances run</source>
        <translation>有实例运行时，关闭窗口后 LabGPU 留在托盘中</translation>
    </message>
    <message>
        <source>Start LabGPU in the tray at login</source>
        <translation>登录时在托盘中启动 LabGPU</translation>
    </message>
    <message>
        <source>Written: {where}</source>
        <translation>已写入：{where}</translation>
    </message>
    <message>
        <source>Removed: {where}</source>
        <translation>已删除：{where}</translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation>已保存。</translation>
    </message>
</context>
<context>
    <name>argparse</name>
    <message>
        <source>usage: </source>
        <translation>用法：</translation>
    </message>
    <message>
        <source>options</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>positional arguments</source>
        <translation>位置参数</translation>
    </message>
    <message>
        <source>show this help message and exit</source>
        <translation>显示此帮助并退出</translation>
    </message>
    <message>
        <source>%(prog)s: error: %(message)s
</source>
        <translation>%(prog)s：错误：%(message)s
</translation>
    </message>
    <message>
        <source>argument %(argument_name)s: %(message)s</source>
        <translation>参数 %(argument_name)s：%(message)s</translation>
    </message>
    <message>
        <source>the following arguments are required: %s</source>
        <translation>缺少必需的参数：%s</translation>
    </message>
    <message>
        <source>unrecognized arguments: %s</source>
        <translation>无法识别的参数：%s</translation>
    </message>
    <message>
        <source>invalid choice: %(value)r (choose from %(choices)s)</source>
        <translation>无效的选择：%(value)r（可选：%(choices)s）</translation>
    </message>
    <message>
        <source>invalid %(type)s value: %(value)r</source>
        <translation>无效的 %(type)s 值：%(value)r</translation>
    </message>
    <message>
        <source>expected one argument</source>
        <translation>需要一个参数</translation>
    </message>
    <message>
        <source>expected at least one argument</source>
        <translation>至少需要一个参数</translation>
    </message>
    <message>
        <source>expected at most one argument</source>
        <translation>最多只能有一个参数</translation>
    </message>
    <message>
        <source>expected %s argument</source>
        <translation>需要 %s 个参数</translation>
    </message>
    <message>
        <source>expected %s arguments</source>
        <translation>需要 %s 个参数</translation>
    </message>
    <message>
        <source>ambiguous option: %(option)s could match %(matches)s</source>
        <translation>选项有歧义：%(option)s 可匹配 %(matches)s</translation>
    </message>
    <message>
        <source>not allowed with argument %s</source>
        <translation>不能与参数 %s 同时使用</translation>
    </message>
    <message>
        <source>one of the arguments %s is required</source>
        <translation>参数 %s 中必须给出一个</translation>
    </message>
    <message>
        <source>ignored explicit argument %r</source>
        <translation>忽略了显式参数 %r</translation>
    </message>
</context>
</TS>