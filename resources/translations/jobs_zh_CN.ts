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
</context>
</TS>