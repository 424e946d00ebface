<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>See `labgpu recovery set --help`.</source>
        <translation>看看 `labgpu recovery set --help`。</translation>
    </message>
    <message>
        <source>A recovery policy is set for an instance or a job, not {value}.</source>
        <translation>恢复策略只能设在实例或任务上，不能设在 {value} 上。</translation>
    </message>
    <message>
        <source>A recovery policy needs the instance or job it is for.</source>
        <translation>恢复策略需要指明它属于哪个实例或任务。</translation>
    </message>
    <message>
        <source>Recovery needs a resume command, e.g. python train.py --resume {checkpoint}.</source>
        <translation>自动恢复需要一条续训命令，比如 python train.py --resume {checkpoint}。</translation>
    </message>
    <message>
        <source>The resume command may hold {{checkpoint}} and no other {{…}} field; it holds {value}.</source>
        <translation>续训命令里只能有 {{checkpoint}}，不能有别的 {{…}} 字段；你写的是 {value}。</translation>
    </message>
    <message>
        <source>The {what} must be a path of at most 500 characters with no control characters.</source>
        <translation>{what}必须是不超过 500 个字符、不含控制字符的路径。</translation>
    </message>
    <message>
        <source>The {what} on the instance must start with / or ~/, not {value}.</source>
        <translation>实例上的{what}必须以 / 或 ~/ 开头，而不是 {value}。</translation>
    </message>
    <message>
        <source>The {what} needs both folders: the one on this computer and the one on the instance.</source>
        <translation>{what}需要两个文件夹：这台电脑上的和实例上的。</translation>
    </message>
    <message>
        <source>Allow spot, on-demand or both for the relaunch.</source>
        <translation>重新启动时至少允许竞价或按量计费中的一种。</translation>
    </message>
    <message>
        <source>The most launch attempts must be a whole number from 1 to 50, not {value}.</source>
        <translation>最多启动次数必须是 1 到 50 之间的整数，而不是 {value}。</translation>
    </message>
    <message>
        <source>The budget must be a positive amount, not {value}.</source>
        <translation>预算必须是正数，而不是 {value}。</translation>
    </message>
    <message>
        <source>{value} is not a region or account name.</source>
        <translation>{value} 不是地域名或账号名。</translation>
    </message>
    <message>
        <source>checkpoint folder</source>
        <translation>检查点文件夹</translation>
    </message>
    <message>
        <source>code folder</source>
        <translation>代码文件夹</translation>
    </message>
    <message>
        <source>checkpoint file pattern</source>
        <translation>检查点文件匹配规则</translation>
    </message>
    <message>
        <source>resume command</source>
        <translation>续训命令</translation>
    </message>
    <message>
        <source>launched</source>
        <translation>已启动</translation>
    </message>
    <message>
        <source>reclaimed → relaunched</source>
        <translation>被回收 → 已重新启动</translation>
    </message>
    <message>
        <source>Run {run}: {instances}</source>
        <translation>运行 {run}：{instances}</translation>
    </message>
    <message>
        <source>{id} is already part of run {run}.</source>
        <translation>{id} 已经属于运行 {run}。</translation>
    </message>
    <message>
        <source>An instance belongs to one run only; see `labgpu cost`.</source>
        <translation>一个实例只能属于一个运行；看看 `labgpu cost`。</translation>
    </message>
    <message>
        <source>An instance cannot follow itself in a run ({id}).</source>
        <translation>实例不能在运行中接在自己后面（{id}）。</translation>
    </message>
    <message>
        <source>Link the reclaimed instance to the new one.</source>
        <translation>把被回收的实例和新实例连起来。</translation>
    </message>
    <message>
        <source>spot</source>
        <translation>竞价</translation>
    </message>
    <message>
        <source>No instance or job named {id}.</source>
        <translation>没有叫 {id} 的实例或任务。</translation>
    </message>
    <message>
        <source>Use an id from `labgpu ls` or `labgpu jobs ls`.</source>
        <translation>用 `labgpu ls` 或 `labgpu jobs ls` 里的 id。</translation>
    </message>
    <message>
        <source>{id} has no recovery policy.</source>
        <translation>{id} 没有设置回收恢复策略。</translation>
    </message>
    <message>
        <source>Set one with `labgpu recovery set {id} --resume "…{{checkpoint}}"`.</source>
        <translation>用 `labgpu recovery set {id} --resume "…{{checkpoint}}"` 设置一个。</translation>
    </message>
    <message>
        <source>{value} is not a pair of folders.</source>
        <translation>{value} 不是一对文件夹。</translation>
    </message>
    <message>
        <source>Write it as FROM=TO, e.g. /root/ckpt=./ckpt.</source>
        <translation>写成 来源=目标，例如 /root/ckpt=./ckpt。</translation>
    </message>
    <message>
        <source>{id} names {n} jobs.</source>
        <translation>{id} 对应 {n} 个任务。</translation>
    </message>
    <message>
        <source>Give more of the job's id (see `labgpu jobs ls`).</source>
        <translation>多写几位任务 id（见 `labgpu jobs ls`）。</translation>
    </message>
    <message>
        <source>the same zone</source>
        <translation>同一可用区</translation>
    </message>
    <message>
        <source>the other zones</source>
        <translation>其他可用区</translation>
    </message>
    <message>
        <source>on demand</source>
        <translation>按量计费</translation>
    </message>
    <message>
        <source>Acts</source>
        <translation>生效</translation>
    </message>
    <message>
        <source>Checkpoints</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Resume with</source>
        <translation>续训命令</translation>
    </message>
    <message>
        <source>Relaunch in</source>
        <translation>重新启动顺序</translation>
    </message>
    <message>
        <source>As</source>
        <translation>计费方式</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>尝试次数</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Recovery policy of {kind} {id}:</source>
        <translation>{kind} {id} 的回收恢复策略：</translation>
    </message>
    <message>
        <source>job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>No recovery policy is set.</source>
        <translation>还没有设置回收恢复策略。</translation>
    </message>
    <message>
        <source>KIND</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>TARGET</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>ACTS</source>
        <translation>生效</translation>
    </message>
    <message>
        <source>RESUME WITH</source>
        <translation>续训命令</translation>
    </message>
    <message>
        <source>Removed the recovery policy of {kind} {id}.</source>
        <translation>已删除 {kind} {id} 的回收恢复策略。</translation>
    </message>
</context>
</TS>