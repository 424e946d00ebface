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
        <source>A checkpoint bucket needs the checkpoint folder on the instance it is uploaded from.</source>
        <translation>设置检查点存储桶时，还需要填写实例上要从中上传的检查点文件夹。</translation>
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
        <source>{target}: a reclaim notice for an instance LabGPU did not launch — nothing relaunched (recovery acts only on LabGPU's instances)</source>
        <translation>{target}：收到回收通知，但这台实例不是 LabGPU 启动的 —— 没有重新启动任何实例（自动恢复只处理 LabGPU 的实例）</translation>
    </message>
    <message>
        <source>{target}: the reclaim notice is for {when}, which has passed — nothing relaunched; check the instance and relaunch it yourself if it is gone</source>
        <translation>{target}：回收通知的时间是 {when}，已经过去了 —— 没有重新启动；去看看这台实例，如果它没了就自己重新启动</translation>
    </message>
    <message>
        <source>{target}: its recovery has already started ({step}) — this notice starts no second one</source>
        <translation>{target}：它的恢复已经开始了（{step}）—— 这条通知不会再开始第二次恢复</translation>
    </message>
    <message>
        <source>{target}: checkpoint saved in the warning window: {what}</source>
        <translation>{target}：在预警时间内保存了检查点：{what}</translation>
    </message>
    <message>
        <source>{target}: no checkpoint saved: {what} — the relaunch goes ahead and the job starts from scratch</source>
        <translation>{target}：没有保存检查点：{what} —— 照样重新启动，任务从头开始</translation>
    </message>
    <message>
        <source>{target} was reclaimed: relaunched as {new} ({where}, {market}) after {attempts} launch attempt(s)</source>
        <translation>{target} 被回收了：经过 {attempts} 次启动尝试，已重新启动为 {new}（{where}，{market}）</translation>
    </message>
    <message>
        <source>{target}: the job {name} runs again on {new} ({how})</source>
        <translation>{target}：任务 {name} 已在 {new} 上重新运行（{how}）</translation>
    </message>
    <message>
        <source>{target}: recovery gave up — {why}</source>
        <translation>{target}：自动恢复放弃了 —— {why}</translation>
    </message>
    <message>
        <source>{name} ({size}) to {local}</source>
        <translation>{name}（{size}）保存到 {local}</translation>
    </message>
    <message>
        <source>; not saved: {count} older checkpoint(s), lost with the instance</source>
        <translation>；没有保存：{count} 个更早的检查点，会随实例一起丢失</translation>
    </message>
    <message>
        <source>no file matching {pattern} in {folder}</source>
        <translation>{folder} 里没有匹配 {pattern} 的文件</translation>
    </message>
    <message>
        <source>the policy names no checkpoint folder</source>
        <translation>恢复策略里没有填检查点文件夹</translation>
    </message>
    <message>
        <source>{name} ({size}) did not fit the warning window: {done} copied when it closed</source>
        <translation>{name}（{size}）在预警时间内没传完：结束时只复制了 {done}</translation>
    </message>
    <message>
        <source>the instance could not be read: {why}</source>
        <translation>读不到这台实例：{why}</translation>
    </message>
    <message>
        <source>the warning window had closed</source>
        <translation>预警时间已经结束了</translation>
    </message>
    <message>
        <source>{name} ({size}) uploaded by the instance to {bucket}</source>
        <translation>{name}（{size}）已由实例上传到 {bucket}</translation>
    </message>
    <message>
        <source>The new instance could not fetch the checkpoint {url}: {why}</source>
        <translation>新实例无法获取检查点 {url}：{why}</translation>
    </message>
    <message>
        <source>The job starts from scratch; fetch it yourself with labgpu sync URL HOST:DIR and start the job again.</source>
        <translation>任务将从头开始；你可以用 labgpu sync URL HOST:DIR 自己取回检查点，然后重新启动任务。</translation>
    </message>
    <message>
        <source>not uploaded to {bucket}: {why}</source>
        <translation>未上传到 {bucket}：{why}</translation>
    </message>
    <message>
        <source>the policy's {max} launch attempts are used up ({tried})</source>
        <translation>策略允许的 {max} 次启动尝试已经用完（{tried}）</translation>
    </message>
    <message>
        <source>the budget of {budget} {cur} would be passed: the run has cost {spent} and the next instance costs {price} {cur}/h</source>
        <translation>会超出 {budget} {cur} 的预算：这次运行已经花了 {spent}，下一台实例每小时 {price} {cur}</translation>
    </message>
    <message>
        <source>the price of {what} is not known, so the budget cannot be kept</source>
        <translation>不知道 {what} 的价格，没法守住预算</translation>
    </message>
    <message>
        <source>no allowed place had capacity ({tried})</source>
        <translation>允许的地方都没有库存（{tried}）</translation>
    </message>
    <message>
        <source>the launch failed: {why}</source>
        <translation>启动失败：{why}</translation>
    </message>
    <message>
        <source>{new} did not answer over SSH within {seconds} s ({why}); it keeps running — terminate it or start the job yourself</source>
        <translation>{new} 在 {seconds} 秒内没有响应 SSH（{why}）；它还在运行 —— 你可以销毁它，或者自己启动任务</translation>
    </message>
    <message>
        <source>the job could not be started on {new}: {why}; it keeps running — terminate it or start the job yourself</source>
        <translation>没能在 {new} 上启动任务：{why}；它还在运行 —— 你可以销毁它，或者自己启动任务</translation>
    </message>
    <message>
        <source>the recovery policy was switched off</source>
        <translation>恢复策略已经关掉了</translation>
    </message>
    <message>
        <source>resumed from {checkpoint}</source>
        <translation>从 {checkpoint} 继续</translation>
    </message>
    <message>
        <source>started from scratch: no checkpoint was saved</source>
        <translation>从头开始：没有保存到检查点</translation>
    </message>
    <message>
        <source>the cloud did not answer the launch request: {why}; the next watcher start asks again with the same request (never a second instance)</source>
        <translation>云没有回复启动请求：{why}；下次监控启动时会用同一个请求再问一次（绝不会多开一台）</translation>
    </message>
    <message>
        <source>saving the checkpoint</source>
        <translation>正在保存检查点</translation>
    </message>
    <message>
        <source>relaunching</source>
        <translation>正在重新启动</translation>
    </message>
    <message>
        <source>relaunched</source>
        <translation>已重新启动</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>已继续运行</translation>
    </message>
    <message>
        <source>gave up</source>
        <translation>已放弃</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>spot</source>
        <translation>竞价</translation>
    </message>
    <message>
        <source>on-demand</source>
        <translation>按量计费</translation>
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
        <source>what LabGPU does by itself when a spot instance is reclaimed</source>
        <translation>竞价实例被回收时 LabGPU 自动执行的操作</translation>
    </message>
    <message>
        <source>commands</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>set (or change) the recovery policy of an instance or a job</source>
        <translation>设置（或修改）实例或任务的恢复策略</translation>
    </message>
    <message>
        <source>a LabGPU instance id, or a job id or name</source>
        <translation>LabGPU 实例 ID，或任务 ID 或名称</translation>
    </message>
    <message>
        <source>TARGET is a job (when an instance has the same name)</source>
        <translation>TARGET 指任务（当有实例同名时）</translation>
    </message>
    <message>
        <source>the recovery policies (all, or one TARGET's) and the run it is in</source>
        <translation>恢复策略（全部，或某个 TARGET 的）及其所在的运行</translation>
    </message>
    <message>
        <source>an instance id or a job (default: all)</source>
        <translation>实例 ID 或任务（默认：全部）</translation>
    </message>
    <message>
        <source>print JSON</source>
        <translation>输出 JSON</translation>
    </message>
    <message>
        <source>remove the recovery policy of an instance or a job</source>
        <translation>删除实例或任务的恢复策略</translation>
    </message>
    <message>
        <source>an instance id or a job</source>
        <translation>实例 ID 或任务</translation>
    </message>
    <message>
        <source>the command that resumes the job, e.g. "python train.py --resume {checkpoint}"</source>
        <translation>继续任务的命令，例如 "python train.py --resume {checkpoint}"</translation>
    </message>
    <message>
        <source>the instance's checkpoint folder and where the latest one is saved on this computer</source>
        <translation>实例的检查点文件夹，以及最新检查点在这台电脑上的保存位置</translation>
    </message>
    <message>
        <source>which files in the folder are checkpoints (default *)</source>
        <translation>文件夹中哪些文件是检查点（默认 *）</translation>
    </message>
    <message>
        <source>the code folder pushed to the new instance</source>
        <translation>推送到新实例的代码文件夹</translation>
    </message>
    <message>
        <source>where the resumed job runs on the new instance</source>
        <translation>继续的任务在新实例上的运行位置</translation>
    </message>
    <message>
        <source>relaunch in the region's other zones when the same zone is sold out (default)</source>
        <translation>同一可用区售罄时在该地域的其他可用区重新启动（默认）</translation>
    </message>
    <message>
        <source>relaunch only in the same zone</source>
        <translation>只在同一可用区重新启动</translation>
    </message>
    <message>
        <source>other regions of the same account, tried in this order</source>
        <translation>同一账号的其他地域，按此顺序尝试</translation>
    </message>
    <message>
        <source>other accounts (clouds) allowed, in order</source>
        <translation>允许使用的其他账号（云），按顺序</translation>
    </message>
    <message>
        <source>relaunch as spot (default)</source>
        <translation>以竞价实例重新启动（默认）</translation>
    </message>
    <message>
        <source>do not relaunch as spot</source>
        <translation>不以竞价实例重新启动</translation>
    </message>
    <message>
        <source>allow an on-demand relaunch</source>
        <translation>允许以按量计费重新启动</translation>
    </message>
    <message>
        <source>never relaunch on demand</source>
        <translation>从不以按量计费重新启动</translation>
    </message>
    <message>
        <source>the most the whole run may cost (the account's currency)</source>
        <translation>整次运行的费用上限（按账号的币种）</translation>
    </message>
    <message>
        <source>remove the budget</source>
        <translation>删除预算</translation>
    </message>
    <message>
        <source>launch calls allowed in all (1-50, default 5)</source>
        <translation>总共允许的启动调用次数（1-50，默认 5）</translation>
    </message>
    <message>
        <source>keep the policy but do not act on it</source>
        <translation>保留策略但不执行</translation>
    </message>
    <message>
        <source>act on the policy again (after --disable)</source>
        <translation>重新执行该策略（在 --disable 之后）</translation>
    </message>
    <message>
        <source>Spot recovery is for spot instances: an on-demand one is not reclaimed.</source>
        <translation>回收恢复只用于竞价实例：按量实例不会被回收。</translation>
    </message>
    <message>
        <source>Add --spot, or leave the --recovery-* options out.</source>
        <translation>加上 --spot，或者去掉 --recovery-* 选项。</translation>
    </message>
    <message>
        <source>spot recovery: the command that resumes the job on a relaunched instance, with {checkpoint} (the rest of the policy: `labgpu recovery set`)</source>
        <translation>竞价实例恢复：在重新启动的实例上继续任务的命令，含 {checkpoint}（策略的其余部分：`labgpu recovery set`）</translation>
    </message>
    <message>
        <source>spot recovery: the checkpoint folder and where the latest one is saved here</source>
        <translation>竞价实例恢复：检查点文件夹，以及最新检查点在本机的保存位置</translation>
    </message>
    <message>
        <source>spot recovery: the code folder pushed to the relaunched instance</source>
        <translation>竞价实例恢复：推送到重新启动实例的代码文件夹</translation>
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