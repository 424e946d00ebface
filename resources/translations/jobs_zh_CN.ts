<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>--stall-minutes must be a number of minutes from 1 to 10080 (a week), not {value}.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The stall action must be notify or stop, not {value}.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>What happens when the job ends must be nothing, pull, pull-and-stop or pull-and-terminate, not {value}.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>A job needs a host to run on.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>See `labgpu run --help`.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>A job name has at most 100 characters and no control characters.</source>
        <translation type="unfinished" />
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
        <translation type="unfinished" />
    </message>
    <message>
        <source>A job id is 16 hex digits, as `labgpu jobs` lists it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The command cannot be started: {why}</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Give the program and its arguments after `--`, e.g. `labgpu run HOST -- python train.py --epochs 3`.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>no command was given</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>an argument contains a NUL character</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>the command is longer than 128 KiB</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The job could not be started on {host}: {why}</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Check that the login user can write to its home folder and that /bin/sh exists; the job's folder is ~/.labgpu/jobs/{id}.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>{host} gave an answer LabGPU cannot read about job {id}.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Try again; if it repeats, look at ~/.labgpu/jobs/{id} on the host.</source>
        <translation type="unfinished" />
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
        <translation type="unfinished" />
    </message>
    <message>
        <source>`labgpu jobs` lists the jobs (an id's first digits are enough).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>{id} names {n} jobs.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Give more of the id, as `labgpu jobs` lists it.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>There is no saved sync pair {pair} for {host}.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>`labgpu sync pairs` lists the saved pairs; --sync takes the number of one that uploads to this host.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The sync pair {pair} downloads; the sync before a job uploads.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>The upload before the job was incomplete ({n} file(s) not transferred); the job was not started.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>See `labgpu sync history`, fix the cause and run it again.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Uploading {local} to {host}:{remote}…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Connecting to {host}…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Starting the job on {host}…</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Job {id} runs on {host} ({detach}).</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>No command to run.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>Put the command after `--`, e.g. `labgpu run HOST --name t -- python train.py --epochs 3`.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>`labgpu jobs` takes a host, or `stop JOB`.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>e.g. `labgpu jobs`, `labgpu jobs gpu1 --json`, `labgpu jobs stop 3f2a`.</source>
        <translation type="unfinished" />
    </message>
    <message>
        <source>--grace must be 0 to 600 seconds.</source>
        <translation type="unfinished" />
    </message>
</context>
</TS>