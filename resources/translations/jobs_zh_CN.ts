<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>--stall-minutes must be a number of minutes from 1 to 10080 (a week), not {value}.</source>
        <translation>--stall-minutes 须为 1 到 10080（一周）之间的分钟数，而不是 {value}。</translation>
    </message>
    <message>
        <source>The stall action must be notify or stop, not {value}.</source>
        <translation>停滞时的操作须为 notify 或 stop，而不是 {value}。</translation>
    </message>
    <message>
        <source>What happens when the job ends must be nothing, pull, pull-and-stop or pull-and-terminate, not {value}.</source>
        <translation>任务结束后的操作须为 nothing、pull、pull-and-stop 或 pull-and-terminate，而不是 {value}。</translation>
    </message>
    <message>
        <source>A job needs a host to run on.</source>
        <translation>任务需要一台运行它的主机。</translation>
    </message>
    <message>
        <source>See `labgpu run --help`.</source>
        <translation>参见 `labgpu run --help`。</translation>
    </message>
    <message>
        <source>A job name has at most 100 characters and no control characters.</source>
        <translation>任务名称最多 100 个字符，且不能包含控制字符。</translation>
    </message>
    <message>
        <source>The progress pattern is longer than {limit} characters.</source>
        <translation>进度模式超过了 {limit} 个字符。</translation>
    </message>
    <message>
        <source>Match only the part of the line that holds the step, e.g. step (?P&lt;step&gt;\d+)/(?P&lt;total&gt;\d+)</source>
        <translation>只匹配行中包含步数的那一部分，例如 step (?P&lt;step&gt;\d+)/(?P&lt;total&gt;\d+)</translation>
    </message>
    <message>
        <source>The progress pattern is not a valid regular expression: {why}.</source>
        <translation>进度模式不是有效的正则表达式：{why}。</translation>
    </message>
    <message>
        <source>Fix the expression (Python syntax), e.g. step (?P&lt;step&gt;\d+)/(?P&lt;total&gt;\d+)</source>
        <translation>请修正表达式（Python 语法），例如 step (?P&lt;step&gt;\d+)/(?P&lt;total&gt;\d+)</translation>
    </message>
    <message>
        <source>The progress pattern has no group named step.</source>
        <translation>进度模式中没有名为 step 的分组。</translation>
    </message>
    <message>
        <source>Name the number to read (?P&lt;step&gt;\d+), and the total, if the line has one, (?P&lt;total&gt;\d+).</source>
        <translation>给要读取的数字命名为 (?P&lt;step&gt;\d+)；如果该行带有总数，再命名为 (?P&lt;total&gt;\d+)。</translation>
    </message>
    <message>
        <source>The progress pattern repeats a repetition, which can take forever on a long line.</source>
        <translation>进度模式对重复再做重复，遇到很长的行可能永远算不完。</translation>
    </message>
    <message>
        <source>Write it without the outer repeat, e.g. (\d+) instead of (\d+)+.</source>
        <translation>去掉外层的重复，例如用 (\d+) 代替 (\d+)+。</translation>
    </message>
    <message>
        <source>Not a job id: {id}</source>
        <translation>不是任务 ID：{id}</translation>
    </message>
    <message>
        <source>A job id is 16 hex digits, as `labgpu jobs` lists it.</source>
        <translation>任务 ID 为 16 位十六进制数字，与 `labgpu jobs` 列出的一致。</translation>
    </message>
    <message>
        <source>The command cannot be started: {why}</source>
        <translation>无法启动该命令：{why}</translation>
    </message>
    <message>
        <source>Give the program and its arguments after `--`, e.g. `labgpu run HOST -- python train.py --epochs 3`.</source>
        <translation>请在 `--` 之后给出程序及其参数，例如 `labgpu run HOST -- python train.py --epochs 3`。</translation>
    </message>
    <message>
        <source>no command was given</source>
        <translation>没有给出命令</translation>
    </message>
    <message>
        <source>an argument contains a NUL character</source>
        <translation>某个参数包含 NUL 字符</translation>
    </message>
    <message>
        <source>the command is longer than 128 KiB</source>
        <translation>命令长度超过 128 KiB</translation>
    </message>
    <message>
        <source>it did not report its start within 15 s; `labgpu jobs` shows whether it runs</source>
        <translation>它在 15 秒内没有报告已启动；`labgpu jobs` 会显示它是否在运行</translation>
    </message>
    <message>
        <source>The job could not be started on {host}: {why}</source>
        <translation>无法在 {host} 上启动任务：{why}</translation>
    </message>
    <message>
        <source>Check that the login user can write to its home folder and that /bin/sh exists; the job's folder is ~/.labgpu/jobs/{id}.</source>
        <translation>请检查登录用户能否写入其主目录、/bin/sh 是否存在；该任务的目录为 ~/.labgpu/jobs/{id}。</translation>
    </message>
    <message>
        <source>{host} gave an answer LabGPU cannot read about job {id}.</source>
        <translation>{host} 关于任务 {id} 的回应 LabGPU 无法读取。</translation>
    </message>
    <message>
        <source>Try again; if it repeats, look at ~/.labgpu/jobs/{id} on the host.</source>
        <translation>请重试；若反复出现，请查看主机上的 ~/.labgpu/jobs/{id}。</translation>
    </message>
    <message>
        <source>The TensorBoard folder is not a usable path.</source>
        <translation>TensorBoard 文件夹不是可用的路径。</translation>
    </message>
    <message>
        <source>Give a folder on the host, e.g. runs or ~/project/runs, without line breaks.</source>
        <translation>请填写主机上的文件夹，例如 runs 或 ~/project/runs，不要包含换行。</translation>
    </message>
    <message>
        <source>No job {id}.</source>
        <translation>没有任务 {id}。</translation>
    </message>
    <message>
        <source>`labgpu jobs` lists the jobs (an id's first digits are enough).</source>
        <translation>`labgpu jobs` 会列出所有任务（ID 只需前几位）。</translation>
    </message>
    <message>
        <source>{id} names {n} jobs.</source>
        <translation>{id} 对应 {n} 个任务。</translation>
    </message>
    <message>
        <source>Give more of the id, as `labgpu jobs` lists it.</source>
        <translation>请给出更长的 ID（见 `labgpu jobs` 的列表）。</translation>
    </message>
    <message>
        <source>There is no saved sync pair {pair} for {host}.</source>
        <translation>{host} 没有已保存的同步对 {pair}。</translation>
    </message>
    <message>
        <source>--sync takes LOCAL=REMOTE, or the number of a saved pair that uploads to this host (the Sync page).</source>
        <translation>--sync 接受 本地=远程，或上传到此主机的已保存同步对的编号（见“同步”页面）。</translation>
    </message>
    <message>
        <source>The sync pair {pair} downloads; the sync before a job uploads.</source>
        <translation>同步对 {pair} 是下载方向；任务开始前的同步须为上传。</translation>
    </message>
    <message>
        <source>The upload before the job was incomplete ({n} file(s) not transferred); the job was not started.</source>
        <translation>任务开始前的上传未完成（{n} 个文件未传输）；任务没有启动。</translation>
    </message>
    <message>
        <source>The pair's history on the Sync page names what was not transferred and why; fix the cause and run it again.</source>
        <translation>“同步”页面中该同步对的历史记录列出了未传输的文件及原因；排除原因后请重新运行。</translation>
    </message>
    <message>
        <source>Uploading {local} to {host}:{remote}…</source>
        <translation>正在上传 {local} 到 {host}:{remote}…</translation>
    </message>
    <message>
        <source>{host} fetches {url} into {remote}…</source>
        <translation>{host} 正在把 {url} 取到 {remote}…</translation>
    </message>
    <message>
        <source>The bucket's data did not all reach the host before the job ({n} file(s) not transferred: {why}); the job was not started.</source>
        <translation>任务开始前，存储桶中的数据未能全部到达主机（{n} 个文件未传输：{why}）；任务未启动。</translation>
    </message>
    <message>
        <source>Connecting to {host}…</source>
        <translation>正在连接 {host}…</translation>
    </message>
    <message>
        <source>Starting the job on {host}…</source>
        <translation>正在 {host} 上启动任务…</translation>
    </message>
    <message>
        <source>Job {id} runs on {host} ({detach}).</source>
        <translation>任务 {id} 正在 {host} 上运行（{detach}）。</translation>
    </message>
    <message>
        <source>No command to run.</source>
        <translation>没有要运行的命令。</translation>
    </message>
    <message>
        <source>Put the command after `--`, e.g. `labgpu run HOST --name t -- python train.py --epochs 3`.</source>
        <translation>请把命令放在 `--` 之后，例如 `labgpu run HOST --name t -- python train.py --epochs 3`。</translation>
    </message>
    <message>
        <source>`labgpu jobs` takes a host, or `stop JOB`.</source>
        <translation>`labgpu jobs` 接受一个主机名，或 `stop 任务`。</translation>
    </message>
    <message>
        <source>e.g. `labgpu jobs`, `labgpu jobs gpu1 --json`, `labgpu jobs stop 3f2a`.</source>
        <translation>例如 `labgpu jobs`、`labgpu jobs gpu1 --json`、`labgpu jobs stop 3f2a`。</translation>
    </message>
    <message>
        <source>--sync takes LOCAL=REMOTE or a saved pair's number, not {value}.</source>
        <translation>--sync 接受 本地=远程 或已保存同步对的编号，而不是 {value}。</translation>
    </message>
    <message>
        <source>--grace must be 0 to 600 seconds.</source>
        <translation>--grace 须为 0 到 600 秒。</translation>
    </message>
    <message>
        <source>a name for the job (shown in `labgpu jobs`)</source>
        <translation>任务名称（显示在 `labgpu jobs` 中）</translation>
    </message>
    <message>
        <source>the folder it runs in on the host (default: the home folder; ~/… allowed)</source>
        <translation>它在主机上运行的文件夹（默认：主目录；可用 ~/…）</translation>
    </message>
    <message>
        <source>upload before the start: LOCAL=REMOTE (saved as an upload pair of the host), or the number of a saved pair</source>
        <translation>启动前上传：LOCAL=REMOTE（保存为主机的上传同步对），或已保存同步对的编号</translation>
    </message>
    <message>
        <source>when it ends: pull the host's download pairs, then stop or terminate the instance (while LabGPU watches)</source>
        <translation>结束时：拉取主机的下载同步对，然后停止或释放实例（LabGPU 监控期间）</translation>
    </message>
    <message>
        <source>with a --then that stops or terminates: do it also when the job fails (exits non-zero or is lost); by default a failed job is pulled and notified, the instance kept</source>
        <translation>配合会停止或释放实例的 --then：任务失败（非零退出或丢失）时也执行；默认失败的任务只拉取并通知，保留实例</translation>
    </message>
    <message>
        <source>a regular expression with a named group 'step' (and optionally 'total') for the progress, when the log has no tqdm/Trainer/Lightning bar</source>
        <translation>日志中没有 tqdm/Trainer/Lightning 进度条时，用于读取进度的正则表达式，需含命名组 'step'（可选 'total'）</translation>
    </message>
    <message>
        <source>a TensorBoard log folder on the host: steps are also read from its event files</source>
        <translation>主机上的 TensorBoard 日志文件夹：也从其事件文件读取步数</translation>
    </message>
    <message>
        <source>no new step, log line or event for N minutes: a stall notice (while LabGPU watches)</source>
        <translation>N 分钟内没有新步数、日志行或事件：发出停滞通知（LabGPU 监控期间）</translation>
    </message>
    <message>
        <source>on a stall: notify (default), or pull and stop as --then says</source>
        <translation>停滞时：发通知（默认），或按 --then 拉取并停止</translation>
    </message>
    <message>
        <source>print the started job as JSON</source>
        <translation>以 JSON 输出已启动的任务</translation>
    </message>
    <message>
        <source>start a command on a host, detached (it survives SSH drops): a training job</source>
        <translation>在主机上以脱离终端方式启动命令（SSH 断开也不受影响）：训练任务</translation>
    </message>
    <message>
        <source>Start CMD on HOST detached (tmux when the host has it, else setsid), with its log and exit status recorded under ~/.labgpu/jobs/&lt;id&gt;/ on the host. CMD is the program and its arguments after --, exactly as typed.</source>
        <translation>在 HOST 上以脱离终端的方式启动 CMD（主机有 tmux 时用 tmux，否则用 setsid），日志和退出状态记录在主机的 ~/.labgpu/jobs/&lt;id&gt;/ 下。CMD 是 -- 之后的程序及其参数，按原样执行。</translation>
    </message>
    <message>
        <source>a host of `labgpu hosts ls` or a LabGPU instance id</source>
        <translation>`labgpu hosts ls` 中的主机或 LabGPU 实例 ID</translation>
    </message>
    <message>
        <source>the command and its arguments</source>
        <translation>命令及其参数</translation>
    </message>
    <message>
        <source>the training jobs (all, or one host's); `jobs stop JOB` stops one</source>
        <translation>训练任务（全部，或某台主机的）；`jobs stop JOB` 停止其中一个</translation>
    </message>
    <message>
        <source>a JSON list: id, name, host, state, exit_code, steps_per_s, eta_s, started, last_line…</source>
        <translation>JSON 列表：id、name、host、state、exit_code、steps_per_s、eta_s、started、last_line…</translation>
    </message>
    <message>
        <source>what is known, without asking the hosts</source>
        <translation>已知信息，不询问主机</translation>
    </message>
    <message>
        <source>with stop: seconds between TERM and KILL (default 10)</source>
        <translation>配合 stop：TERM 与 KILL 之间的秒数（默认 10）</translation>
    </message>
    <message>
        <source>a job's log (-f: follow it until the job ends)</source>
        <translation>任务日志（-f：持续跟随直到任务结束）</translation>
    </message>
    <message>
        <source>a job id (its first digits are enough) or name</source>
        <translation>任务 ID（前几位即可）或名称</translation>
    </message>
    <message>
        <source>keep printing new output until the job ends</source>
        <translation>持续输出新内容直到任务结束</translation>
    </message>
    <message>
        <source>start this many bytes before the end (default: the whole log)</source>
        <translation>从末尾往前这么多字节开始（默认：整个日志）</translation>
    </message>
    <message>
        <source>{id}  started on {host} ({detach}); follow it with: labgpu logs {id} -f</source>
        <translation>{id}  已在 {host} 上启动（{detach}）；跟随日志：labgpu logs {id} -f</translation>
    </message>
    <message>
        <source>Spot recovery: resume with {resume} (change it: labgpu recovery set {id} …)</source>
        <translation>竞价实例恢复：用 {resume} 继续（修改：labgpu recovery set {id} …）</translation>
    </message>
    <message>
        <source>{id}  {state_text}  after {duration}</source>
        <translation>{id}  {state_text}  用时 {duration}</translation>
    </message>
    <message>
        <source>No jobs on {host}. Start one: labgpu run {host} -- CMD (the hosts: labgpu hosts ls)</source>
        <translation>{host} 上没有任务。启动一个：labgpu run {host} -- CMD（主机列表：labgpu hosts ls）</translation>
    </message>
    <message>
        <source>No jobs. Start one: labgpu run HOST -- CMD</source>
        <translation>还没有任务。启动一个：labgpu run HOST -- CMD</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>NAME</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>HOST</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>STATE</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>RUNTIME</source>
        <translation>运行时长</translation>
    </message>
    <message>
        <source>STEP</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>STEPS/S</source>
        <translation>步/秒</translation>
    </message>
    <message>
        <source>ETA</source>
        <translation>剩余时间</translation>
    </message>
    <message>
        <source>STARTED</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>LAST LINE</source>
        <translation>最后一行</translation>
    </message>
</context>
</TS>