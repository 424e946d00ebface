<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>Autostart</name>
    <message>
        <source>Could not change the start-at-login entry {where}: {error}</source>
        <translation>无法修改登录时启动的条目 {where}：{error}</translation>
    </message>
    <message>
        <source>Check that the folder is writable, or turn the setting off again.</source>
        <translation>请检查该文件夹是否可写，或重新关闭此设置。</translation>
    </message>
</context>
<context>
    <name>CostTray</name>
    <message>
        <source>LabGPU: nothing is billing</source>
        <translation>LabGPU：没有正在计费的实例</translation>
    </message>
    <message>
        <source>LabGPU: there is no system tray here, so the cost monitor runs without its icon (the guards still apply); the icon appears as soon as a tray starts. Meanwhile '{cli} cost' shows what bills, and '{cli}' opens the window.</source>
        <translation>LabGPU：这里没有系统托盘，费用监控在没有图标的情况下运行（守护规则照常生效）；托盘一出现，图标就会显示。在此期间，'{cli} cost' 可查看正在计费的内容，'{cli}' 可打开窗口。</translation>
    </message>
    <message>
        <source>{name}: {rate}/h, {total} so far</source>
        <translation>{name}：{rate}/小时，累计 {total}</translation>
    </message>
    <message>
        <source>Costs could not be read: {error}</source>
        <translation>无法读取费用：{error}</translation>
    </message>
    <message>
        <source>{name} — {rate}/h · {total}</source>
        <translation>{name} — {rate}/小时 · {total}</translation>
    </message>
    <message>
        <source>Account {account}</source>
        <translation>账号 {account}</translation>
    </message>
    <message>
        <source>Stop {id}…</source>
        <translation>停止 {id}…</translation>
    </message>
    <message>
        <source>Nothing is billing</source>
        <translation>没有正在计费的实例</translation>
    </message>
    <message>
        <source>Reading costs…</source>
        <translation>正在读取费用…</translation>
    </message>
    <message>
        <source>Costs could not be read</source>
        <translation>无法读取费用</translation>
    </message>
    <message>
        <source>labgpu watch</source>
        <translation>labgpu watch</translation>
    </message>
    <message>
        <source>the tray</source>
        <translation>托盘</translation>
    </message>
    <message>
        <source>the LabGPU window</source>
        <translation>LabGPU 窗口</translation>
    </message>
    <message>
        <source>Guards are applied by {who} (process {pid}); this LabGPU takes over when it ends</source>
        <translation>守护由{who}执行（进程 {pid}）；它结束后由这个 LabGPU 接管</translation>
    </message>
    <message>
        <source>Guards are applied by another LabGPU (process {pid})</source>
        <translation>守护由另一个 LabGPU 执行（进程 {pid}）</translation>
    </message>
    <message>
        <source>Guards are applied here (process {pid})</source>
        <translation>守护由这里执行（进程 {pid}）</translation>
    </message>
    <message>
        <source>{id}: NOT stopped yet — still billing</source>
        <translation>{id}：尚未停止 —— 仍在计费</translation>
    </message>
    <message>
        <source>{id}: idle guard blind — {why}</source>
        <translation>{id}：空闲守护看不到 GPU —— {why}</translation>
    </message>
    <message>
        <source>Relaunch {what}…</source>
        <translation>重新启动 {what}…</translation>
    </message>
    <message>
        <source>Open LabGPU</source>
        <translation>打开 LabGPU</translation>
    </message>
    <message>
        <source>Quit LabGPU</source>
        <translation>退出 LabGPU</translation>
    </message>
    <message>
        <source>Stop {id}?</source>
        <translation>停止 {id}？</translation>
    </message>
    <message>
        <source>Terminate {id}?</source>
        <translation>销毁 {id}？</translation>
    </message>
    <message>
        <source>{cloud} has no stop: terminate {name} ({account})? It costs {rate}/h now and {total} so far. Terminating ends its bill and deletes its disk: pull what you need first.</source>
        <translation>{cloud} 没有“停止”：要销毁 {name}（{account}）吗？它现在每小时 {rate}，累计 {total}。销毁会结束计费并删除它的磁盘：请先拉取需要的数据。</translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>销毁</translation>
    </message>
    <message>
        <source>{id} terminated: it no longer bills.</source>
        <translation>{id} 已销毁：不再计费。</translation>
    </message>
    <message>
        <source>Stop {name} ({account})? It costs {rate}/h now and {total} so far. Processes on it end; its disk is kept (and may still bill).</source>
        <translation>停止 {name}（{account}）？它现在每小时 {rate}，累计 {total}。其上的进程会结束；磁盘会保留（可能仍会计费）。</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>{id} stopped. {note}</source>
        <translation>{id} 已停止。{note}</translation>
    </message>
    <message>
        <source>Instance stopped</source>
        <translation>实例已停止</translation>
    </message>
    <message>
        <source>{id} was NOT stopped: {message} {hint}</source>
        <translation>{id} 没有停止：{message} {hint}</translation>
    </message>
    <message>
        <source>Stop failed</source>
        <translation>停止失败</translation>
    </message>
    <message>
        <source>{id} is being reclaimed</source>
        <translation>{id} 即将被回收</translation>
    </message>
    <message>
        <source>Click to relaunch the same offer.</source>
        <translation>点击以同样的配置重新启动。</translation>
    </message>
    <message>
        <source>Guard could not stop {id}</source>
        <translation>守护无法停止 {id}</translation>
    </message>
    <message>
        <source>Guard: {id}</source>
        <translation>守护：{id}</translation>
    </message>
    <message>
        <source>LabGPU — {billing}</source>
        <translation>LabGPU — {billing}</translation>
    </message>
    <message>
        <source>Job {name} finished on {host}</source>
        <translation>任务 {name} 已在 {host} 上完成</translation>
    </message>
    <message>
        <source>Job {name} failed on {host}</source>
        <translation>任务 {name} 在 {host} 上失败</translation>
    </message>
    <message>
        <source>Job {name} stalled on {host}</source>
        <translation>任务 {name} 在 {host} 上停滞</translation>
    </message>
    <message>
        <source>VPN {name} connected</source>
        <translation>VPN {name} 已连接</translation>
    </message>
    <message>
        <source>VPN {name}: {state}</source>
        <translation>VPN {name}：{state}</translation>
    </message>
    <message>
        <source>Open the VPN page to reconnect.</source>
        <translation>打开 VPN 页面重新连接。</translation>
    </message>
    <message>
        <source>Quit while instances run?</source>
        <translation>实例仍在运行，要退出吗？</translation>
    </message>
    <message>
        <source>These instances keep running and billing after LabGPU quits, and no guard watches them until it starts again:
{names}</source>
        <translation>LabGPU 退出后，这些实例会继续运行并计费，在它再次启动前没有任何守护会看着它们：
{names}</translation>
    </message>
    <message>
        <source>Quit anyway</source>
        <translation>仍然退出</translation>
    </message>
</context>
<context>
    <name>EditGuardsDialog</name>
    <message>
        <source>Guards of {target}</source>
        <translation>{target} 的守护</translation>
    </message>
    <message>
        <source>Guards of {target} (a server without a cloud API: notify only)</source>
        <translation>{target} 的守护（没有云 API 的服务器：仅通知）</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Export GPU history</source>
        <translation>导出 GPU 历史</translation>
    </message>
    <message>
        <source>Host:</source>
        <translation>主机：</translation>
    </message>
    <message>
        <source>From:</source>
        <translation>从：</translation>
    </message>
    <message>
        <source>To:</source>
        <translation>到：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>1-second samples where they are still in memory (the last 24 hours), 1-minute means before. Unknown values are empty cells.</source>
        <translation>内存中仍有的部分（最近 24 小时）为每秒采样，更早的为每分钟平均值。未知的值留空。</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Choose a host first.</source>
        <translation>请先选择一台主机。</translation>
    </message>
    <message>
        <source>The end must be after the start.</source>
        <translation>结束时间必须晚于开始时间。</translation>
    </message>
    <message>
        <source>Choose a file to write.</source>
        <translation>请选择要写入的文件。</translation>
    </message>
    <message>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <source>Nothing recorded for {host} in that range; {path} has only the header.</source>
        <translation>{host} 在这段时间内没有记录；{path} 中只有表头。</translation>
    </message>
    <message>
        <source>{rows} rows written to {path}.</source>
        <translation>已写入 {rows} 行到 {path}。</translation>
    </message>
    <message>
        <source>Choose another folder or file name.</source>
        <translation>请选择其他文件夹或文件名。</translation>
    </message>
    <message>
        <source>Export failed: {message} {hint}</source>
        <translation>导出失败：{message} {hint}</translation>
    </message>
</context>
<context>
    <name>GuardEditor</name>
    <message>
        <source>Guards</source>
        <translation>守护</translation>
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
        <source>→</source>
        <translation>→</translation>
    </message>
    <message>
        <source>Idle:</source>
        <translation>空闲：</translation>
    </message>
    <message>
        <source>A missing sample (N/A, MIG, a dropped connection) counts as busy: a guard never stops on data it does not have.</source>
        <translation>缺失的采样（N/A、MIG、连接中断）算作忙碌：守护绝不会根据没有的数据停止实例。</translation>
    </message>
    <message>
        <source>no budget</source>
        <translation>无预算</translation>
    </message>
    <message>
        <source>Budget (warn at 80 %, stop at 100 %):</source>
        <translation>预算（80 % 时提醒，100 % 时停止）：</translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Maximum runtime:</source>
        <translation>最长运行时间：</translation>
    </message>
    <message>
        <source>At launch it is also handed to the cloud where it can be (Tencent terminates, Alibaba releases, AWS shuts down at that time), so the bill ends even when this computer is off.</source>
        <translation>启动时也会尽可能交给云端执行（腾讯云到时终止、阿里云到时释放、AWS 到时关机），即使这台电脑关机，计费也会结束。</translation>
    </message>
    <message>
        <source>a PID or part of a process name, e.g. train.py</source>
        <translation>PID 或进程名的一部分，例如 train.py</translation>
    </message>
    <message>
        <source>Stop when this process exits:</source>
        <translation>此进程退出时停止：</translation>
    </message>
    <message>
        <source>Pull checkpoints (the host's "before stop" sync) before stopping</source>
        <translation>停止前拉取检查点（该主机的“停止前”同步）</translation>
    </message>
    <message>
        <source>Also install the on-instance watchdog (stops it even when this computer sleeps)</source>
        <translation>同时安装实例内看门狗（即使这台电脑休眠也能停止它）</translation>
    </message>
    <message>
        <source>This server has no cloud API: LabGPU can only notify you. It never stops it — stop it yourself when told.</source>
        <translation>这台服务器没有云 API：LabGPU 只能通知你，绝不会停止它——收到通知后请自己停止。</translation>
    </message>
    <message>
        <source>notify me (notify only)</source>
        <translation>通知我（仅通知）</translation>
    </message>
    <message>
        <source>Notify only: the budget warns, it cannot stop a server.</source>
        <translation>仅通知：预算只会提醒，无法停止服务器。</translation>
    </message>
</context>
<context>
    <name>GuardsUi</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>idle &lt;{pct}% {min} min → {action}</source>
        <translation>空闲 &lt;{pct}% {min} 分钟 → {action}</translation>
    </message>
    <message>
        <source>terminate</source>
        <translation>销毁</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>notify</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>budget {amount} {cur} OFF: price unknown</source>
        <translation>预算 {amount} {cur} 未生效：价格未知</translation>
    </message>
    <message>
        <source>budget {amount} {cur}</source>
        <translation>预算 {amount} {cur}</translation>
    </message>
    <message>
        <source>max {h} h</source>
        <translation>最长 {h} 小时</translation>
    </message>
    <message>
        <source>until {process} exits</source>
        <translation>直到 {process} 退出</translation>
    </message>
    <message>
        <source>watchdog</source>
        <translation>实例内看门狗</translation>
    </message>
    <message>
        <source>(notify only)</source>
        <translation>（仅通知）</translation>
    </message>
    <message>
        <source>(enforced by the cloud: {what})</source>
        <translation>（云端强制：{what}）</translation>
    </message>
    <message>
        <source>(cloud backstop off: {why})</source>
        <translation>（云端兜底未生效：{why}）</translation>
    </message>
    <message>
        <source>Enforced by the cloud, even when this computer is off: {what}. Changing the maximum runtime here does not move it.</source>
        <translation>由云端强制，即使这台电脑关机也有效：{what}。在此修改最长运行时间不会改变它。</translation>
    </message>
    <message>
        <source>Not enforced by the cloud: {why}. Only LabGPU's watcher (and the watchdog, if on) stops it.</source>
        <translation>未由云端强制：{why}。只有 LabGPU 的监视器（以及已开启的看门狗）会停止它。</translation>
    </message>
</context>
<context>
    <name>HostPanel</name>
    <message>
        <source>N/A</source>
        <translation>N/A</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>connecting…</source>
        <translation>正在连接…</translation>
    </message>
    <message>
        <source>live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>reconnecting…</source>
        <translation>正在重连…</translation>
    </message>
    <message>
        <source>error</source>
        <translation>出错</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Edit guards…</source>
        <translation>编辑守护…</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Util.</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Memory (GiB)</source>
        <translation>显存 (GiB)</translation>
    </message>
    <message>
        <source>Temp.</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Power (W)</source>
        <translation>功率 (W)</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>Process</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>显存 (MiB)</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 列表</translation>
    </message>
    <message>
        <source>Compute processes</source>
        <translation>计算进程</translation>
    </message>
    <message>
        <source>Guards: {guards}</source>
        <translation>守护：{guards}</translation>
    </message>
    <message>
        <source>{host} — {state} · 1 GPU</source>
        <translation>{host} — {state} · 1 块 GPU</translation>
    </message>
    <message>
        <source>{host} — {state} · {n} GPUs</source>
        <translation>{host} — {state} · {n} 块 GPU</translation>
    </message>
    <message>
        <source>nvidia-smi on {host}: {error}</source>
        <translation>{host} 上的 nvidia-smi：{error}</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>no data</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>Compute processes ({n})</source>
        <translation>计算进程（{n}）</translation>
    </message>
</context>
<context>
    <name>MonitorPage</name>
    <message>
        <source>Last 10 minutes</source>
        <translation>最近 10 分钟</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>最近 1 小时</translation>
    </message>
    <message>
        <source>Last 6 hours</source>
        <translation>最近 6 小时</translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>Last 7 days (minute means)</source>
        <translation>最近 7 天（每分钟平均）</translation>
    </message>
    <message>
        <source>Last 30 days (minute means)</source>
        <translation>最近 30 天（每分钟平均）</translation>
    </message>
    <message>
        <source>GPU monitor</source>
        <translation>GPU 监控</translation>
    </message>
    <message>
        <source>Hosts…</source>
        <translation>主机…</translation>
    </message>
    <message>
        <source>Choose the hosts to watch (servers of the Hosts page and LabGPU's running instances)</source>
        <translation>选择要监控的主机（主机页面中的服务器和 LabGPU 正在运行的实例）</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Freeze the graphs; samples are still recorded</source>
        <translation>冻结图表；采样仍会记录</translation>
    </message>
    <message>
        <source>Back to live</source>
        <translation>回到实时</translation>
    </message>
    <message>
        <source>Follow the newest samples again</source>
        <translation>重新跟随最新采样</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>No host is watched. Choose hosts with Hosts… — the servers of the Hosts page and LabGPU's running instances are listed there.</source>
        <translation>没有正在监控的主机。用“主机…”选择——那里列出了主机页面中的服务器和 LabGPU 正在运行的实例。</translation>
    </message>
    <message>
        <source>Hosts could not be listed: {message} {hint}</source>
        <translation>无法列出主机：{message} {hint}</translation>
    </message>
    <message>
        <source>No host yet: add one on the Hosts page</source>
        <translation>还没有主机：请在主机页面添加</translation>
    </message>
    <message>
        <source>{name} (instance)</source>
        <translation>{name}（实例）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Live · 1 host</source>
        <translation>实时 · 1 台主机</translation>
    </message>
    <message>
        <source>Live · {n} hosts</source>
        <translation>实时 · {n} 台主机</translation>
    </message>
    <message>
        <source>Showing a chosen range</source>
        <translation>正在显示所选时间段</translation>
    </message>
    <message>
        <source>&lt;b&gt;{host}: {title}&lt;/b&gt; {text}</source>
        <translation>&lt;b&gt;{host}：{title}&lt;/b&gt; {text}</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>MonitorPlots</name>
    <message>
        <source>Utilization (%)</source>
        <translation>利用率 (%)</translation>
    </message>
    <message>
        <source>Memory used (GiB)</source>
        <translation>已用显存 (GiB)</translation>
    </message>
    <message>
        <source>Temperature (°C)</source>
        <translation>温度 (°C)</translation>
    </message>
    <message>
        <source>Power (W)</source>
        <translation>功率 (W)</translation>
    </message>
    <message>
        <source>Training steps/s</source>
        <translation>训练 步/秒</translation>
    </message>
</context>
<context>
    <name>TrayShell</name>
    <message>
        <source>1 instance still bills; its cost and guards stay here.</source>
        <translation>仍有 1 个实例在计费；它的费用和守护会留在这里。</translation>
    </message>
    <message>
        <source>{n} instances still bill; their costs and guards stay here.</source>
        <translation>仍有 {n} 个实例在计费；它们的费用和守护会留在这里。</translation>
    </message>
    <message>
        <source>LabGPU keeps running in the tray</source>
        <translation>LabGPU 在托盘中继续运行</translation>
    </message>
</context>
</TS>