<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>nvidia-smi is not installed on this host</source>
        <translation>这台主机上没有安装 nvidia-smi</translation>
    </message>
    <message>
        <source>install the NVIDIA driver (it brings nvidia-smi), or choose an image with the driver preinstalled</source>
        <translation>安装 NVIDIA 驱动（会带上 nvidia-smi），或选择预装驱动的镜像</translation>
    </message>
    <message>
        <source>the NVIDIA driver is not loaded: reboot the instance, or reinstall the driver (check `lsmod | grep nvidia` and `dmesg`)</source>
        <translation>NVIDIA 驱动没有加载：重启实例，或重新安装驱动（检查 `lsmod | grep nvidia` 和 `dmesg`）</translation>
    </message>
    <message>
        <source>the driver was updated but the old kernel module is still loaded: reboot the host</source>
        <translation>驱动已更新，但旧的内核模块仍在运行：请重启主机</translation>
    </message>
    <message>
        <source>no GPU is visible: check that the instance type has GPUs (`lspci | grep -i nvidia`) and that the driver supports them</source>
        <translation>看不到任何 GPU：确认实例规格带 GPU（`lspci | grep -i nvidia`），并且驱动支持它们</translation>
    </message>
    <message>
        <source>a GPU fell off the bus: save your work, then reboot the host; if it happens again, ask the provider for another machine</source>
        <translation>有一块 GPU 掉卡了：先保存你的工作，再重启主机；如果再次发生，请向服务商换一台机器</translation>
    </message>
    <message>
        <source>this user may not run nvidia-smi: ask the administrator to add you to the group that owns /dev/nvidia*</source>
        <translation>这个用户无权运行 nvidia-smi：请管理员把你加入拥有 /dev/nvidia* 的用户组</translation>
    </message>
    <message>
        <source>run nvidia-smi on the host yourself to see more</source>
        <translation>在主机上亲自运行 nvidia-smi 查看更多信息</translation>
    </message>
    <message>
        <source>nvidia-smi failed (exit status {code})</source>
        <translation>nvidia-smi 运行失败（退出码 {code}）</translation>
    </message>
    <message>
        <source>{host} reports more GPUs than any real machine has (over {cap}); {n} of them were ignored</source>
        <translation>{host} 报告的 GPU 数量超过任何真实机器（多于 {cap} 个）；其中 {n} 个已被忽略</translation>
    </message>
    <message>
        <source>the host may be misconfigured or compromised: check it (run nvidia-smi -L there) and do not trust its readings until it lists its real GPUs</source>
        <translation>该主机可能配置有误或已被入侵：请检查它（在主机上运行 nvidia-smi -L），在它列出真实的 GPU 之前不要相信它的读数</translation>
    </message>
    <message>
        <source>nvidia-smi printed a line longer than {cap} bytes; the rest of it was dropped</source>
        <translation>nvidia-smi 输出了一行超过 {cap} 字节的内容；超出部分已丢弃</translation>
    </message>
    <message>
        <source>The idle threshold must be between 1 and 100 %, not {value}</source>
        <translation>空闲阈值必须在 1 到 100 % 之间，而不是 {value}</translation>
    </message>
    <message>
        <source>The idle window must be between 1 and 1440 minutes, not {value}</source>
        <translation>空闲时长必须在 1 到 1440 分钟之间，而不是 {value}</translation>
    </message>
    <message>
        <source>On idle must be notify or stop, not {value}</source>
        <translation>空闲时的动作必须是 notify 或 stop，而不是 {value}</translation>
    </message>
    <message>
        <source>The budget must be a positive amount, not {value}</source>
        <translation>预算必须是正数，而不是 {value}</translation>
    </message>
    <message>
        <source>The budget currency must be CNY or USD, not {value}</source>
        <translation>预算币种必须是 CNY 或 USD，而不是 {value}</translation>
    </message>
    <message>
        <source>The maximum runtime must be a positive number of hours, not {value}</source>
        <translation>最长运行时间必须是正的小时数，而不是 {value}</translation>
    </message>
    <message>
        <source>correct the value and set the guard again</source>
        <translation>改正这个值后重新设置守护</translation>
    </message>
    <message>
        <source>the host reports no GPU data: {error}</source>
        <translation>主机没有报告 GPU 数据：{error}</translation>
    </message>
    <message>
        <source>nvidia-smi lists no GPUs (no driver loaded?)</source>
        <translation>nvidia-smi 没有列出任何 GPU（驱动未加载？）</translation>
    </message>
    <message>
        <source>GPU {index} reports no utilization (MIG mode or an unsupported GPU)</source>
        <translation>GPU {index} 没有报告利用率（MIG 模式或不支持的 GPU）</translation>
    </message>
    <message>
        <source>no GPU samples for {seconds} s (the connection dropped)</source>
        <translation>已有 {seconds} 秒没有 GPU 采样（连接已断开）</translation>
    </message>
    <message>
        <source>The GPUs wait for data</source>
        <translation>GPU 在等数据</translation>
    </message>
    <message>
        <source>GPU utilization stayed under {pct} % for {minutes} minutes. Try a larger batch size, more data-loader workers (num_workers), pinned memory (pin_memory=True), or gradient accumulation.</source>
        <translation>GPU 利用率已连续 {minutes} 分钟低于 {pct} %。试试更大的 batch size、更多的数据加载进程（num_workers）、锁页内存（pin_memory=True）或梯度累积。</translation>
    </message>
    <message>
        <source>GPU memory is nearly full</source>
        <translation>显存快满了</translation>
    </message>
    <message>
        <source>GPU memory reached {pct} % of its size. Mixed precision (torch.autocast / AMP) or gradient checkpointing frees memory for a larger batch.</source>
        <translation>显存已用到 {pct} %。混合精度（torch.autocast / AMP）或梯度检查点能省出显存，用来跑更大的 batch。</translation>
    </message>
    <message>
        <source>Another LabGPU (process {pid}) is already applying the guards</source>
        <translation>另一个 LabGPU（进程 {pid}）已经在执行守护</translation>
    </message>
    <message>
        <source>stop that one first (close the window or tray, or interrupt its `labgpu watch`); only one may act, so nothing is stopped twice</source>
        <translation>请先停掉那一个（关闭窗口或托盘，或中断它的 `labgpu watch`）；同一时间只能有一个在执行，这样不会重复停机</translation>
    </message>
    <message>
        <source>{target}: every GPU has been under {pct} % for {minutes} minutes</source>
        <translation>{target}：所有 GPU 已连续 {minutes} 分钟低于 {pct} %</translation>
    </message>
    <message>
        <source>{target}: every GPU has been under {pct} % for {minutes} minutes — this server has no cloud API, so LabGPU only notifies; stop it yourself</source>
        <translation>{target}：所有 GPU 已连续 {minutes} 分钟低于 {pct} % —— 这台服务器没有云 API，LabGPU 只能提醒；请你自己停掉它</translation>
    </message>
    <message>
        <source>{target} has used {pct} % of its budget ({spent} of {budget} {cur})</source>
        <translation>{target} 已用掉预算的 {pct} %（{budget} {cur} 中的 {spent}）</translation>
    </message>
    <message>
        <source>{target} reached its budget ({spent} of {budget} {cur}): stopping it</source>
        <translation>{target} 已达到预算（{budget} {cur} 中的 {spent}）：正在停机</translation>
    </message>
    <message>
        <source>{target} ran its maximum of {hours} hours: stopping it</source>
        <translation>{target} 已运行到最长 {hours} 小时：正在停机</translation>
    </message>
    <message>
        <source>{target}: the process {process} has exited: stopping it</source>
        <translation>{target}：进程 {process} 已退出：正在停机</translation>
    </message>
    <message>
        <source>{target} was stopped by its {guard} guard</source>
        <translation>{target} 已被它的 {guard} 守护停机</translation>
    </message>
    <message>
        <source>{target} could NOT be stopped after {tries} tries: {why} — it is still billing; stop it in the cloud console (LabGPU keeps trying quietly)</source>
        <translation>{target} 在尝试 {tries} 次后仍未能停止：{why} —— 它仍在计费；请在云控制台停止它（LabGPU 会继续在后台重试）</translation>
    </message>
    <message>
        <source>{target} could NOT be stopped: the cloud refused the request because this computer&apos;s clock is off ({why}) — it is still billing. Turn on automatic time (NTP) in the system settings, or stop it in the cloud console; LabGPU keeps trying quietly</source>
        <translation>{target} 未能停止：云端拒绝了请求，因为这台电脑的时钟不准（{why}）—— 它仍在计费。请在系统设置中开启自动对时（NTP），或在云控制台停止它；LabGPU 会继续在后台重试</translation>
    </message>
    <message>
        <source>{target} could NOT be stopped: the cloud could not be reached ({why}) — it is still billing. Check the network (Wi-Fi, VPN, proxy), or stop it in the cloud console from another device; LabGPU keeps trying quietly</source>
        <translation>{target} 未能停止：无法连接云端（{why}）—— 它仍在计费。请检查网络（Wi-Fi、VPN、代理），或用其他设备在云控制台停止它；LabGPU 会继续在后台重试</translation>
    </message>
    <message>
        <source>{target} is {state} now; its guard stops trying to stop it</source>
        <translation>{target} 现在的状态是 {state}；其守护不再尝试停止它</translation>
    </message>
    <message>
        <source>no answer from the cloud within {seconds} s</source>
        <translation>云端在 {seconds} 秒内没有应答</translation>
    </message>
    <message>
        <source>{target}: its budget guard ({budget} {cur}) cannot act yet — the price per hour is unknown. Refresh the prices (labgpu prices refresh --account {account}); LabGPU uses the account&apos;s price as soon as it is known</source>
        <translation>{target}：其预算守护（{budget} {cur}）暂时无法生效 —— 每小时价格未知。请刷新价格（labgpu prices refresh --account {account}）；一旦得知该账号的价格，LabGPU 会立即使用</translation>
    </message>
    <message>
        <source>{target}: its budget guard acts again, with the price {price} {cur}/h ({source})</source>
        <translation>{target}：其预算守护已恢复生效，使用价格 {price} {cur}/小时（{source}）</translation>
    </message>
    <message>
        <source>{target}: the idle guard is blind — {why}; it counts as busy, so nothing is stopped as idle until it sees the GPUs again</source>
        <translation>{target}：空闲守护看不到 GPU —— {why}；这段时间按忙碌计算，在重新看到 GPU 之前不会因空闲而停止</translation>
    </message>
    <message>
        <source>{target}: the idle guard sees the GPUs again</source>
        <translation>{target}：空闲守护重新看到了 GPU</translation>
    </message>
    <message>
        <source>{target}: pulling checkpoints before the stop failed: {why} — the stop goes ahead (a stopped instance keeps its disk)</source>
        <translation>{target}：停机前拉取检查点失败：{why} —— 仍会停机（停机的实例会保留磁盘）</translation>
    </message>
    <message>
        <source>{target} will be reclaimed by the cloud at {when} ({action}): pulling checkpoints now; you can relaunch the same offer with one click</source>
        <translation>{target} 将在 {when} 被云平台回收（{action}）：正在拉取检查点；你可以一键重新启动同一个报价</translation>
    </message>
    <message>
        <source>{target} was shut down by its on-instance watchdog, and the cloud kept billing its compute while it was stopped, so LabGPU started it and stopped it without charging: {note}</source>
        <translation>{target} 已被实例内看门狗关机，但关机后云仍在对其计算资源计费，所以 LabGPU 把它开机后又以关机不收费的方式关机：{note}</translation>
    </message>
    <message>
        <source>{target} was shut down by its on-instance watchdog, but the cloud still bills its compute while it is stopped, and stopping it without charging failed: {why} — terminate it, or start and stop it in LabGPU.</source>
        <translation>{target} 已被实例内看门狗关机，但关机后云仍在对其计算资源计费，而以关机不收费方式关机失败：{why} — 请销毁它，或在 LabGPU 中先开机再关机。</translation>
    </message>
    <message>
        <source>{target}: checkpoints pulled ({purpose})</source>
        <translation>{target}：检查点已拉取（{purpose}）</translation>
    </message>
    <message>
        <source>{target}: nothing was pulled — no download sync pair is set up for it (add one with `labgpu guard set {target} --pull REMOTE=LOCAL`)</source>
        <translation>{target}：什么也没拉取 —— 它没有设置下载同步对（用 `labgpu guard set {target} --pull REMOTE=LOCAL` 添加一个）</translation>
    </message>
    <message>
        <source>{target} is not a LabGPU instance: its guards notify only</source>
        <translation>{target} 不是 LabGPU 启动的实例：它的守护只能提醒</translation>
    </message>
    <message>
        <source>{target} was terminated by its {guard} guard: {reason}, so terminating was the only way to end its bill (checkpoints were pulled first; its disk is deleted)</source>
        <translation>{target} 已被其 {guard} 守护规则终止：{reason}，因此终止是结束其计费的唯一方式（已先拉取检查点；其磁盘已被删除）</translation>
    </message>
    <message>
        <source>{target} was terminated by its {guard} guard: {reason}, so terminating was the only way to end its bill (no checkpoints were pulled; its disk is deleted)</source>
        <translation>{target} 已被其 {guard} 守护规则终止：{reason}，因此终止是结束其计费的唯一方式（未拉取任何检查点；其磁盘已被删除）</translation>
    </message>
    <message>
        <source>{target} is still billing: {reason}, and LabGPU terminates it only after its checkpoints are pulled, which failed — pull what you need, then terminate it (labgpu terminate {target})</source>
        <translation>{target} 仍在计费：{reason}，而 LabGPU 只会在拉取检查点之后才终止它，但拉取失败了——请先拉取所需数据，再终止它（labgpu terminate {target}）</translation>
    </message>
    <message>
        <source>{target} is still billing: {reason}, and terminating it failed after {tries} tries: {why} — terminate it in the cloud console (EC2 → Instances → Terminate instance)</source>
        <translation>{target} 仍在计费：{reason}，且终止操作在尝试 {tries} 次后失败：{why}——请在云控制台中终止它（EC2 → 实例 → 终止实例）</translation>
    </message>
    <message>
        <source>{target} was terminated as its {guard} asked (after the pull; its disk is deleted)</source>
        <translation>{target} 已按 {guard} 的要求释放（已先拉取；其磁盘已删除）</translation>
    </message>
    <message>
        <source>The SSH connection to {host} dropped — reconnecting; the graphs continue when it is back</source>
        <translation>到 {host} 的 SSH 连接断开了 —— 正在重连；连上后曲线会继续</translation>
    </message>
    <message>
        <source>{host}: cannot read spot interruption notices: the instance has neither python3 nor curl — install curl, or watch the cloud console</source>
        <translation>{host}：无法读取竞价实例回收通知：实例上既没有 python3 也没有 curl —— 请安装 curl，或留意云控制台</translation>
    </message>
    <message>
        <source>{host}: the metadata service did not answer ({why}); interruption notices cannot be read right now</source>
        <translation>{host}：元数据服务没有应答（{why}）；暂时无法读取回收通知</translation>
    </message>
    <message>
        <source>Could not install the watchdog on {host}: {why}</source>
        <translation>无法在 {host} 上安装看门狗：{why}</translation>
    </message>
    <message>
        <source>Check that the login user can write to its home folder and that /bin/sh exists.</source>
        <translation>确认登录用户能写入自己的主目录，并且 /bin/sh 存在。</translation>
    </message>
    <message>
        <source>Watchdog value out of range: {what} = {value}</source>
        <translation>看门狗参数超出范围：{what} = {value}</translation>
    </message>
    <message>
        <source>Threshold 1–100 %, window 1 s – 24 h, interval 1–600 s, nvidia-smi timeout 1–120 s.</source>
        <translation>阈值 1–100 %，时间窗口 1 秒 – 24 小时，检查间隔 1–600 秒，nvidia-smi 超时 1–120 秒。</translation>
    </message>
    <message>
        <source>The watchdog was not installed on {host}: it could not shut the machine down, because {user} is not root and sudo asks for a password ({why}).</source>
        <translation>未在 {host} 上安装看门狗：它无法关闭这台机器，因为 {user} 不是 root，且 sudo 需要密码（{why}）。</translation>
    </message>
    <message>
        <source>Log in as root, or let {user} run shutdown without a password (a sudoers line with NOPASSWD); until then only LabGPU&apos;s own guards stop the instance, while LabGPU runs.</source>
        <translation>请以 root 登录，或允许 {user} 无需密码运行 shutdown（在 sudoers 中加一行 NOPASSWD）；在此之前，只有 LabGPU 自身的守护规则会在 LabGPU 运行时停止该实例。</translation>
    </message>
    <message>
        <source>The watchdog on {host} could not shut the machine down: {why}</source>
        <translation>{host} 上的看门狗未能关闭这台机器：{why}</translation>
    </message>
    <message>
        <source>The watchdog on {host} was not running (the instance was stopped and started, or it had exited); LabGPU started it again.</source>
        <translation>{host} 上的看门狗没有在运行（实例曾关机后重新开机，或它已退出）；LabGPU 已将其重新启动。</translation>
    </message>
    <message>
        <source>The watchdog on {host} is gone and could not be started again: {why}</source>
        <translation>{host} 上的看门狗已不在运行，且无法重新启动：{why}</translation>
    </message>
    <message>
        <source>The watchdog on {host} now follows the changed guard: {below} % for {window} s.</source>
        <translation>{host} 上的看门狗现已按修改后的守护规则运行：低于 {below} % 持续 {window} 秒。</translation>
    </message>
    <message>
        <source>The watchdog on {host} was removed with its guard.</source>
        <translation>{host} 上的看门狗已随其守护规则一起移除。</translation>
    </message>
    <message>
        <source>See `labgpu guard ls`; `labgpu guard set {host} --watchdog` installs it again once the cause is fixed.</source>
        <translation>请查看 `labgpu guard ls`；问题解决后，运行 `labgpu guard set {host} --watchdog` 重新安装。</translation>
    </message>
    <message>
        <source>GPU utilization, memory, temperature and power of a host</source>
        <translation>主机的 GPU 利用率、显存、温度和功耗</translation>
    </message>
    <message>
        <source>a host of `labgpu hosts ls` or a LabGPU instance id</source>
        <translation>`labgpu hosts ls` 中的主机或 LabGPU 实例 ID</translation>
    </message>
    <message>
        <source>one sample, then exit</source>
        <translation>采样一次后退出</translation>
    </message>
    <message>
        <source>one JSON object per sample per line</source>
        <translation>每个采样一行 JSON 对象</translation>
    </message>
    <message>
        <source>what the instances cost: per instance and in total</source>
        <translation>实例的费用：每个实例及合计</translation>
    </message>
    <message>
        <source>a calendar month (UTC); default: this one</source>
        <translation>日历月份（UTC）；默认本月</translation>
    </message>
    <message>
        <source>print JSON</source>
        <translation>输出 JSON</translation>
    </message>
    <message>
        <source>also write the month&apos;s report as CSV</source>
        <translation>同时把本月报告写成 CSV</translation>
    </message>
    <message>
        <source>idle, budget and runtime guards per instance or host</source>
        <translation>按实例或主机设置的空闲、预算和运行时长守护规则</translation>
    </message>
    <message>
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>set (or change) the guards of an instance or host</source>
        <translation>设置（或修改）实例或主机的守护规则</translation>
    </message>
    <message>
        <source>a LabGPU instance id, or a host of `labgpu hosts ls`</source>
        <translation>LabGPU 实例 ID，或 `labgpu hosts ls` 中的主机</translation>
    </message>
    <message>
        <source>save a download sync pair for this host: the checkpoints pulled before a guard stops it (and on a spot interruption); repeatable</source>
        <translation>为此主机保存下载同步对：守护规则停止它之前（以及竞价实例被回收时）拉取的检查点；可重复</translation>
    </message>
    <message>
        <source>remove the on-instance watchdog (the other guards stay)</source>
        <translation>删除实例上的看门狗（其他守护规则保留）</translation>
    </message>
    <message>
        <source>list the guards</source>
        <translation>列出守护规则</translation>
    </message>
    <message>
        <source>remove the guards of an instance or host</source>
        <translation>删除实例或主机的守护规则</translation>
    </message>
    <message>
        <source>apply the guards until interrupted (one watcher at a time)</source>
        <translation>执行守护规则直到被中断（同一时间只有一个守护进程）</translation>
    </message>
    <message>
        <source>print each guard event as a JSON line</source>
        <translation>每个守护事件输出一行 JSON</translation>
    </message>
    <message>
        <source>exit at once when another LabGPU applies the guards (default: wait and take over when it ends)</source>
        <translation>另一个 LabGPU 正在执行守护规则时立即退出（默认：等待它结束后接管）</translation>
    </message>
    <message>
        <source>  error: {error}</source>
        <translation>  错误：{error}</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>UTIL</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>MEMORY</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>TEMP</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>POWER</source>
        <translation>功耗</translation>
    </message>
    <message>
        <source>STATUS</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>PROCESS</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>{month!r} is not a month.</source>
        <translation>{month!r} 不是一个月份。</translation>
    </message>
    <message>
        <source>Write it as YYYY-MM, e.g. 2026-12.</source>
        <translation>请写成 YYYY-MM，例如 2026-12。</translation>
    </message>
    <message>
        <source>Cost in {month} (UTC)</source>
        <translation>{month} 的费用（UTC）</translation>
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
        <source>TYPE</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>HOURS</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>COST</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>CNY</source>
        <translation>人民币</translation>
    </message>
    <message>
        <source>USD</source>
        <translation>美元</translation>
    </message>
    <message>
        <source>RUN</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Total: {cost_cny:.2f} CNY / {cost_usd:.2f} USD  ({rate})</source>
        <translation>合计：{cost_cny:.2f} 人民币 / {cost_usd:.2f} 美元（{rate}）</translation>
    </message>
    <message>
        <source>Not in the total (price unknown): {join}</source>
        <translation>未计入合计（价格未知）：{join}</translation>
    </message>
    <message>
        <source>Run {id}: {chain}</source>
        <translation>运行 {id}：{chain}</translation>
    </message>
    <message>
        <source>No instance or host named {id}.</source>
        <translation>没有名为 {id} 的实例或主机。</translation>
    </message>
    <message>
        <source>Use an id from `labgpu ls` or a name from `labgpu hosts ls`.</source>
        <translation>请使用 `labgpu ls` 中的实例 ID 或 `labgpu hosts ls` 中的主机名。</translation>
    </message>
    <message>
        <source>{id} has no guards.</source>
        <translation>{id} 没有设置守护。</translation>
    </message>
    <message>
        <source>See `labgpu guard ls`.</source>
        <translation>查看 `labgpu guard ls`。</translation>
    </message>
    <message>
        <source>Before a stop: pull {id}:{remote} into {local}</source>
        <translation>停止前：将 {id}:{remote} 拉取到 {local}</translation>
    </message>
    <message>
        <source>Guards of {id}: {describe_guard}</source>
        <translation>{id} 的守护规则：{describe_guard}</translation>
    </message>
    <message>
        <source>Watchdog running on {id} (pid {pid}): it shuts the machine down after {idle_minutes:g} min with every GPU under {idle_below_pct:g} %.</source>
        <translation>看门狗正在 {id} 上运行（pid {pid}）：所有 GPU 低于 {idle_below_pct:g}% 持续 {idle_minutes:g} 分钟后关机。</translation>
    </message>
    <message>
        <source>Removed the watchdog on {id}: it will not shut the machine down.</source>
        <translation>已删除 {id} 上的看门狗：它不会再关机。</translation>
    </message>
    <message>
        <source>{id} is a server without a cloud API: its guards notify only (stop it yourself).</source>
        <translation>{id} 是没有云 API 的服务器：它的守护规则只发通知（请自行停止）。</translation>
    </message>
    <message>
        <source>They act while LabGPU runs: the window, the tray, or `labgpu watch`.</source>
        <translation>它们在 LabGPU 运行时生效：窗口、托盘或 `labgpu watch`。</translation>
    </message>
    <message>
        <source>--pull needs REMOTE=LOCAL, got {text!r}.</source>
        <translation>--pull 需要 REMOTE=LOCAL 的形式，收到的是 {text!r}。</translation>
    </message>
    <message>
        <source>For example: --pull ~/run/checkpoints=/home/me/checkpoints</source>
        <translation>例如：--pull ~/run/checkpoints=/home/me/checkpoints</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>GUARDS</source>
        <translation>守护规则</translation>
    </message>
    <message>
        <source>ACTS</source>
        <translation>生效</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>terminate</source>
        <translation>销毁</translation>
    </message>
    <message>
        <source>notify only</source>
        <translation>仅通知</translation>
    </message>
    <message>
        <source>Watcher: {value}</source>
        <translation>守护进程：{value}</translation>
    </message>
    <message>
        <source>none running (start the app or `labgpu watch`)</source>
        <translation>没有在运行（启动应用或 `labgpu watch`）</translation>
    </message>
    <message>
        <source>Removed the guards of {id}</source>
        <translation>已删除 {id} 的守护规则</translation>
    </message>
    <message>
        <source>another LabGPU</source>
        <translation>另一个 LabGPU</translation>
    </message>
    <message>
        <source>The guards are applied by {who}; waiting to take over when it ends (Ctrl-C to stop)</source>
        <translation>守护规则正由 {who} 执行；等它结束后接管（按 Ctrl-C 停止）</translation>
    </message>
    <message>
        <source>Took over the guards from {who}</source>
        <translation>已从 {who} 接管守护规则</translation>
    </message>
    <message>
        <source>Watching {n} guarded target(s): {value} (Ctrl-C to stop)</source>
        <translation>正在守护 {n} 个目标：{value}（按 Ctrl-C 停止）</translation>
    </message>
    <message>
        <source>The watchdog runs on {host}: it shuts the machine down after {minutes} min with every GPU under {pct} %, even while this computer sleeps.</source>
        <translation>看门狗已在 {host} 上运行：所有 GPU 低于 {pct} % 持续 {minutes} 分钟后，它会关闭这台机器，即使这台电脑休眠也会。</translation>
    </message>
    <message>
        <source>The watchdog on {host} was removed: it will not shut the machine down.</source>
        <translation>{host} 上的看门狗已移除：它不会再关闭这台机器。</translation>
    </message>
    <message>
        <source>The guard is saved, but the watchdog is not installed on {host}: {why}</source>
        <translation>守护规则已保存，但看门狗没有安装到 {host} 上：{why}</translation>
    </message>
    <message>
        <source>Until it is, only LabGPU&apos;s own guards act, while LabGPU runs. Fix the cause and save the guard again with the watchdog on.</source>
        <translation>在安装成功之前，只有 LabGPU 自己的守护规则会起作用，而且只在 LabGPU 运行时。解决原因后，勾选看门狗再保存一次守护规则。</translation>
    </message>
    <message>
        <source>The guard is saved, but the watchdog on {host} could not be removed: {why}</source>
        <translation>守护规则已保存，但 {host} 上的看门狗未能移除：{why}</translation>
    </message>
    <message>
        <source>It may still shut the machine down after its idle window. Save the guard again once the host is reachable (or run `labgpu guard set {host} --no-watchdog`): that removes it.</source>
        <translation>它仍可能在空闲时间窗口结束后关闭这台机器。主机可以连接后再保存一次守护规则（或运行 `labgpu guard set {host} --no-watchdog`），即可移除它。</translation>
    </message>
    <message>
        <source>The guards of {id} are removed, but its watchdog could not be removed: {why}</source>
        <translation>{id} 的守护规则已移除，但其看门狗未能移除：{why}</translation>
    </message>
    <message>
        <source>It may still shut the machine down after its idle window. Run `labgpu guard rm {id}` again once the host is reachable.</source>
        <translation>它仍可能在空闲时间窗口结束后关闭这台机器。主机可以连接后，请再次运行 `labgpu guard rm {id}`。</translation>
    </message>
    <message>
        <source>Connecting to {host}…</source>
        <translation>正在连接 {host}…</translation>
    </message>
    <message>
        <source>Installing the watchdog on {host}…</source>
        <translation>正在 {host} 上安装看门狗…</translation>
    </message>
    <message>
        <source>Removing the watchdog from {host}…</source>
        <translation>正在从 {host} 移除看门狗…</translation>
    </message>
    <message>
        <source>the instance is terminated</source>
        <translation>该实例已终止</translation>
    </message>
    <message>
        <source>it started, but its status does not show it running with the guard&apos;s window</source>
        <translation>它已启动，但其状态没有显示它在按守护规则的时间窗口运行</translation>
    </message>
    <message>
        <source>1 instance with unknown price ({ids})</source>
        <translation>1 台实例价格未知（{ids}）</translation>
    </message>
    <message>
        <source>{n} instances with unknown price ({ids})</source>
        <translation>{n} 台实例价格未知（{ids}）</translation>
    </message>
    <message>
        <source>{rate}/h, {total} so far</source>
        <translation>{rate}/小时，累计 {total}</translation>
    </message>
    <message>
        <source>{known} + {unknown}</source>
        <translation>{known}，另有 {unknown}</translation>
    </message>
    <message>
        <source>Billing now: {n} instance(s), {amounts}</source>
        <translation>正在计费：{n} 台实例，{amounts}</translation>
    </message>
    <message>
        <source>Nothing is billing for compute right now.</source>
        <translation>当前没有计算资源在计费。</translation>
    </message>
    <message>
        <source>{target}: the job {name} finished (exit code 0) after {runtime}</source>
        <translation>{target}：任务 {name} 已完成（退出码 0），用时 {runtime}</translation>
    </message>
    <message>
        <source>{target}: the job {name} failed with exit code {code} after {runtime}</source>
        <translation>{target}：任务 {name} 失败，退出码 {code}，用时 {runtime}</translation>
    </message>
    <message>
        <source>{target}: the job {name} is lost — the host no longer knows it, or it ended without writing its exit status</source>
        <translation>{target}：任务 {name} 已丢失——主机已不认识它，或它结束时没有写下退出状态</translation>
    </message>
    <message>
        <source>{target}: the job {name} has made no progress for {minutes} minutes (no new step, log line or TensorBoard event) while it still runs</source>
        <translation>{target}：任务 {name} 仍在运行，但已 {minutes} 分钟没有进展（没有新的步数、日志行或 TensorBoard 事件）</translation>
    </message>
    <message>
        <source>{what}; {then}</source>
        <translation>{what}；{then}</translation>
    </message>
    <message>
        <source>pulling the host&apos;s download pairs</source>
        <translation>正在拉取该主机的下载同步对</translation>
    </message>
    <message>
        <source>pulling the host&apos;s download pairs, then stopping it</source>
        <translation>正在拉取该主机的下载同步对，然后停止它</translation>
    </message>
    <message>
        <source>pulling the host&apos;s download pairs, then terminating it</source>
        <translation>正在拉取该主机的下载同步对，然后释放它</translation>
    </message>
    <message>
        <source>pulling the host&apos;s download pairs; the instance keeps running, as chosen for a job that does not end well</source>
        <translation>正在拉取该主机的下载同步对；按你对未正常结束任务的选择，实例保持运行</translation>
    </message>
    <message>
        <source>pulling the host&apos;s download pairs; this server has no cloud API, so LabGPU cannot stop it — stop it yourself</source>
        <translation>正在拉取该主机的下载同步对；该服务器没有云 API，LabGPU 无法停止它——请自行停止</translation>
    </message>
    <message>
        <source>the instance is {state} already, so nothing was pulled or stopped</source>
        <translation>实例已是{state}状态，所以没有拉取，也没有停止</translation>
    </message>
    <message>
        <source>this server has no cloud API, so LabGPU only notifies</source>
        <translation>该服务器没有云 API，LabGPU 只能通知</translation>
    </message>
    <message>
        <source>{target}: the results of the job {name} were pulled</source>
        <translation>{target}：任务 {name} 的结果已拉取</translation>
    </message>
    <message>
        <source>{target}: nothing was pulled after the job {name} — no download sync pair is set up for this host (add one on the Sync page, or labgpu guard set {target} --pull REMOTE=LOCAL)</source>
        <translation>{target}：任务 {name} 结束后没有拉取任何内容——该主机没有设置下载同步对（在同步页添加一个，或运行 labgpu guard set {target} --pull REMOTE=LOCAL）</translation>
    </message>
    <message>
        <source>{target}: pulling the results of the job {name} failed: {why} — pull them yourself before the host goes</source>
        <translation>{target}：拉取任务 {name} 的结果失败：{why}——请在主机释放前自行拉取</translation>
    </message>
</context>
</TS>
