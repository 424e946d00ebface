<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>JobsPage</name>
    <message>
        <source>Jobs</source>
        <translation>训练任务</translation>
    </message>
    <message>
        <source>Training runs started on a host, detached: they keep running when the connection drops, the laptop sleeps or LabGPU closes. When one ends, LabGPU can pull its results and stop the instance.</source>
        <translation>在主机上脱离运行的训练任务：连接断开、笔记本休眠或 LabGPU 关闭时仍会继续运行。任务结束后，LabGPU 可以拉取结果并停止实例。</translation>
    </message>
    <message>
        <source>&amp;New job…</source>
        <translation>新建任务(&amp;N)…</translation>
    </message>
    <message>
        <source>Start a command on a host (Ctrl+N)</source>
        <translation>在主机上启动一条命令（Ctrl+N）</translation>
    </message>
    <message>
        <source>&amp;Stop…</source>
        <translation>停止(&amp;S)…</translation>
    </message>
    <message>
        <source>Stop the chosen job: TERM, then KILL after 10 s (Del)</source>
        <translation>停止所选任务：先发 TERM，10 秒后发 KILL（Del）</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Ask the hosts about every job now (F5)</source>
        <translation>立即向各主机查询所有任务（F5）</translation>
    </message>
    <message>
        <source>Spot re&amp;covery…</source>
        <translation>竞价回收恢复(&amp;C)…</translation>
    </message>
    <message>
        <source>What LabGPU does by itself when the chosen job's spot instance is reclaimed</source>
        <translation>所选任务的竞价实例被回收时，LabGPU 会自动做什么</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Runtime</source>
        <translation>运行时长</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Steps/s</source>
        <translation>步/秒</translation>
    </message>
    <message>
        <source>ETA</source>
        <translation>预计剩余</translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation>目前费用</translation>
    </message>
    <message>
        <source>Last line</source>
        <translation>最后一行</translation>
    </message>
    <message>
        <source>{running} running · {all} in all</source>
        <translation>{running} 个运行中 · 共 {all} 个</translation>
    </message>
    <message>
        <source>The jobs could not be read: {message} {hint}</source>
        <translation>无法读取任务：{message} {hint}</translation>
    </message>
    <message>
        <source>No job yet: New job… starts a command on a host.</source>
        <translation>还没有任务：点“新建任务…”在主机上启动一条命令。</translation>
    </message>
    <message>
        <source>Command: {argv}</source>
        <translation>命令：{argv}</translation>
    </message>
    <message>
        <source>{host} could not be asked: {message}</source>
        <translation>无法查询 {host}：{message}</translation>
    </message>
    <message>
        <source>Log of {name}</source>
        <translation>{name} 的日志</translation>
    </message>
    <message>
        <source>[the log could not be read: {message}]</source>
        <translation>[无法读取日志：{message}]</translation>
    </message>
    <message>
        <source>{name} runs on {host}.</source>
        <translation>{name} 正在 {host} 上运行。</translation>
    </message>
    <message>
        <source>The job was not started.</source>
        <translation>任务未启动。</translation>
    </message>
    <message>
        <source>Starting {name} on {host}…</source>
        <translation>正在 {host} 上启动 {name}…</translation>
    </message>
    <message>
        <source>Stop job</source>
        <translation>停止任务</translation>
    </message>
    <message>
        <source>Stop {name} on {host}? It gets TERM, then KILL after 10 seconds; what it did not save is lost.</source>
        <translation>停止 {host} 上的 {name}？它会先收到 TERM，10 秒后收到 KILL；未保存的内容会丢失。</translation>
    </message>
    <message>
        <source>{name} stopped ({state}).</source>
        <translation>{name} 已停止（{state}）。</translation>
    </message>
    <message>
        <source>The job was not stopped.</source>
        <translation>任务未停止。</translation>
    </message>
    <message>
        <source>Asking the hosts…</source>
        <translation>正在查询各主机…</translation>
    </message>
    <message>
        <source>{seconds} s/step</source>
        <translation>{seconds} 秒/步</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stalled {minutes} min</source>
        <translation>已停滞 {minutes} 分钟</translation>
    </message>
    <message>
        <source>exited {code}</source>
        <translation>已退出 {code}</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>已丢失</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>pull</source>
        <translation>拉取</translation>
    </message>
    <message>
        <source>pull and stop</source>
        <translation>拉取并停止</translation>
    </message>
    <message>
        <source>pull and terminate</source>
        <translation>拉取并释放</translation>
    </message>
    <message>
        <source>acting on it</source>
        <translation>正在处理</translation>
    </message>
    <message>
        <source>told</source>
        <translation>已通知</translation>
    </message>
    <message>
        <source>pulled</source>
        <translation>已拉取</translation>
    </message>
    <message>
        <source>no download pair to pull</source>
        <translation>没有可拉取的下载同步对</translation>
    </message>
    <message>
        <source>the pull failed</source>
        <translation>拉取失败</translation>
    </message>
    <message>
        <source>instance stopped</source>
        <translation>实例已停止</translation>
    </message>
    <message>
        <source>instance terminated</source>
        <translation>实例已释放</translation>
    </message>
    <message>
        <source>stop not confirmed yet</source>
        <translation>停止尚未确认</translation>
    </message>
    <message>
        <source>instance kept running</source>
        <translation>实例保持运行</translation>
    </message>
    <message>
        <source>stalled</source>
        <translation>已停滞</translation>
    </message>
    <message>
        <source>{id} on {host}</source>
        <translation>{id}，位于 {host}</translation>
    </message>
    <message>
        <source>detached with {how}</source>
        <translation>以 {how} 脱离运行</translation>
    </message>
    <message>
        <source>started {when}</source>
        <translation>开始于 {when}</translation>
    </message>
    <message>
        <source>then: {then}</source>
        <translation>结束后：{then}</translation>
    </message>
    <message>
        <source>done: {what}</source>
        <translation>已执行：{what}</translation>
    </message>
    <message>
        <source>stall guard {minutes} min</source>
        <translation>停滞守护 {minutes} 分钟</translation>
    </message>
    <message>
        <source>last refresh failed: {why}</source>
        <translation>上次刷新失败：{why}</translation>
    </message>
</context>
<context>
    <name>StartJobDialog</name>
    <message>
        <source>Nothing</source>
        <translation>不做任何事</translation>
    </message>
    <message>
        <source>Pull the host's download pairs</source>
        <translation>拉取该主机的下载同步对</translation>
    </message>
    <message>
        <source>Pull, then stop the instance</source>
        <translation>拉取，然后停止实例</translation>
    </message>
    <message>
        <source>Pull, then terminate the instance</source>
        <translation>拉取，然后释放实例</translation>
    </message>
    <message>
        <source>Start a job</source>
        <translation>启动任务</translation>
    </message>
    <message>
        <source>The command runs on the host detached (in tmux where the host has it): it keeps running when the connection drops, the laptop sleeps or LabGPU closes.</source>
        <translation>命令在主机上脱离运行（主机有 tmux 时在 tmux 中）：连接断开、笔记本休眠或 LabGPU 关闭时仍会继续运行。</translation>
    </message>
    <message>
        <source>A server of the Hosts page, or a running LabGPU instance</source>
        <translation>主机页中的服务器，或正在运行的 LabGPU 实例</translation>
    </message>
    <message>
        <source>&amp;Host:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <source>optional, e.g. resnet50-lr3e-4</source>
        <translation>可选，例如 resnet50-lr3e-4</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>e.g. python train.py --epochs 10</source>
        <translation>例如 python train.py --epochs 10</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>命令(&amp;C)：</translation>
    </message>
    <message>
        <source>on the host; empty: the login folder</source>
        <translation>主机上的路径；留空：登录目录</translation>
    </message>
    <message>
        <source>&amp;Working folder:</source>
        <translation>工作目录(&amp;W)：</translation>
    </message>
    <message>
        <source>An upload pair of this host (Sync page), synced before the job starts</source>
        <translation>该主机的一个上传同步对（同步页），在任务启动前同步</translation>
    </message>
    <message>
        <source>&amp;Upload first:</source>
        <translation>先上传(&amp;U)：</translation>
    </message>
    <message>
        <source>Pulls run the host's download pairs (Sync page) first; stop and terminate are for LabGPU's own instances</source>
        <translation>拉取会先运行该主机的下载同步对（同步页）；停止和释放只适用于 LabGPU 自己的实例</translation>
    </message>
    <message>
        <source>When it &amp;ends:</source>
        <translation>结束后(&amp;E)：</translation>
    </message>
    <message>
        <source>Also stop or terminate when the job fails</source>
        <translation>任务失败时也停止或释放</translation>
    </message>
    <message>
        <source>Off: a job that exits with an error is pulled and you are told, and the instance keeps running so you can look at it</source>
        <translation>关闭时：出错退出的任务会被拉取并通知你，实例保持运行，方便你查看</translation>
    </message>
    <message>
        <source>optional regex with (?P&lt;step&gt;…), e.g. iter (?P&lt;step&gt;\d+)</source>
        <translation>可选的正则表达式，含 (?P&lt;step&gt;…)，例如 iter (?P&lt;step&gt;\d+)</translation>
    </message>
    <message>
        <source>tqdm bars, Hugging Face Trainer, PyTorch Lightning and 'step N' lines are read without one</source>
        <translation>tqdm 进度条、Hugging Face Trainer、PyTorch Lightning 和 “step N” 行无需填写即可读取</translation>
    </message>
    <message>
        <source>&amp;Progress pattern:</source>
        <translation>进度模式(&amp;P)：</translation>
    </message>
    <message>
        <source>optional, on the host, e.g. runs/exp1</source>
        <translation>可选，主机上的路径，例如 runs/exp1</translation>
    </message>
    <message>
        <source>&amp;TensorBoard folder:</source>
        <translation>TensorBoard 目录(&amp;T)：</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>No new step, log line or TensorBoard event for this long while the job runs: you are told</source>
        <translation>任务运行期间这么长时间内没有新的步数、日志行或 TensorBoard 事件：会通知你</translation>
    </message>
    <message>
        <source>notify</source>
        <translation>通知</translation>
    </message>
    <message>
        <source>notify, pull and stop</source>
        <translation>通知、拉取并停止</translation>
    </message>
    <message>
        <source>&amp;Stall guard:</source>
        <translation>停滞守护(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>启动(&amp;S)</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Not a complete command: {why}</source>
        <translation>命令不完整：{why}</translation>
    </message>
    <message>
        <source>Split as a shell splits words; nothing is expanded or run by a shell on the way.</source>
        <translation>按 shell 的方式拆分单词；途中不会展开任何内容，也不经 shell 执行。</translation>
    </message>
    <message>
        <source>Runs {n} arguments, exactly: {argv}</source>
        <translation>按原样运行 {n} 个参数：{argv}</translation>
    </message>
    <message>
        <source>Type the command to run.</source>
        <translation>请输入要运行的命令。</translation>
    </message>
</context>
</TS>