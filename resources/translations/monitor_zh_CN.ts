<?xml version='1.0' encoding='utf-8'?>
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
        <source>{target} could NOT be stopped after {tries} tries: {why} — it is still billing; stop it in the cloud console</source>
        <translation>{target} 尝试 {tries} 次后仍未能停机：{why} —— 它还在计费；请在云控制台里停掉它</translation>
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
        <source>Threshold 1–100 %, window 1 s – 24 h, interval 1–600 s.</source>
        <translation>阈值 1–100 %，时长 1 秒 – 24 小时，间隔 1–600 秒。</translation>
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
        <source>--pull needs REMOTE=LOCAL, got {text!r}.</source>
        <translation>--pull 需要 REMOTE=LOCAL 的形式，收到的是 {text!r}。</translation>
    </message>
    <message>
        <source>For example: --pull ~/run/checkpoints=/home/me/checkpoints</source>
        <translation>例如：--pull ~/run/checkpoints=/home/me/checkpoints</translation>
    </message>
</context>
</TS>