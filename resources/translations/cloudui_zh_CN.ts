<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AccountDialog</name>
    <message>
        <source>Edit cloud account</source>
        <translation>编辑云账号</translation>
    </message>
    <message>
        <source>Add cloud account</source>
        <translation>添加云账号</translation>
    </message>
    <message>
        <source>{cloud} (buckets only)</source>
        <translation>{cloud}（仅存储桶）</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>&amp;Open key file…</source>
        <translation>打开密钥文件(&amp;O)…</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Custom endpoint</source>
        <translation>自定义接入点</translation>
    </message>
    <message>
        <source>Secrets are kept only in the system keyring; LabGPU&apos;s files keep the account&apos;s name.</source>
        <translation>密钥只保存在系统密钥环中；LabGPU 的文件只记录账号名称。</translation>
    </message>
    <message>
        <source>unchanged ({key})</source>
        <translation>不变（{key}）</translation>
    </message>
    <message>
        <source>unchanged</source>
        <translation>不变</translation>
    </message>
    <message>
        <source>e.g. {name}</source>
        <translation>例如 {name}</translation>
    </message>
    <message>
        <source>Key ID</source>
        <translation>密钥 ID</translation>
    </message>
    <message>
        <source>Secret</source>
        <translation>密钥</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>可选</translation>
    </message>
    <message>
        <source>Open key file</source>
        <translation>打开密钥文件</translation>
    </message>
    <message>
        <source>Key files (*.json);;All files (*)</source>
        <translation>密钥文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>LabGPU could not read {path}: {reason}</source>
        <translation>LabGPU 无法读取 {path}：{reason}</translation>
    </message>
    <message>
        <source>Choose the key file you downloaded from the cloud console.</source>
        <translation>请选择从云控制台下载的密钥文件。</translation>
    </message>
    <message>
        <source>To change the keys, enter both the key id and the secret.</source>
        <translation>要更换密钥，请同时填写密钥 ID 和密钥。</translation>
    </message>
    <message>
        <source>Leave both empty to keep the stored ones.</source>
        <translation>两项都留空则保留已保存的密钥。</translation>
    </message>
</context>
<context>
    <name>AccountsPage</name>
    <message>
        <source>Accounts</source>
        <translation>云账号</translation>
    </message>
    <message>
        <source>Cloud accounts</source>
        <translation>云账号</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Add an account (Ctrl+N)</source>
        <translation>添加账号（Ctrl+N）</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Ask the cloud whether these keys work (Ctrl+T)</source>
        <translation>向云端确认这些密钥是否可用（Ctrl+T）</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>接入点</translation>
    </message>
    <message>
        <source>Key id</source>
        <translation>密钥 ID</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Last test</source>
        <translation>上次测试</translation>
    </message>
    <message>
        <source>No cloud account yet. Add one with your {clouds} keys, or import the keys their own command-line tools already keep on this computer (Import).</source>
        <translation>还没有云账号。用你的{clouds}密钥添加一个，或导入这些云的命令行工具已保存在本机的密钥（导入）。</translation>
    </message>
    <message>
        <source>No secure keyring: LabGPU cannot store cloud keys on this computer.</source>
        <translation>没有安全的密钥环：LabGPU 无法在这台电脑上保存云密钥。</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Saved {name}. Use Test connection to check the keys.</source>
        <translation>已保存 {name}。点击“测试连接”检查密钥。</translation>
    </message>
    <message>
        <source>Remove account</source>
        <translation>删除账号</translation>
    </message>
    <message>
        <source>Remove the account {name} and delete its keys from the keyring?</source>
        <translation>删除账号 {name} 并从密钥环中删除其密钥？</translation>
    </message>
    <message>
        <source>Instances it launched keep running and billing: stop or terminate them first on the Instances page.</source>
        <translation>它创建的实例会继续运行并计费：请先在“实例”页关机或销毁。</translation>
    </message>
    <message>
        <source>Removed {name}.</source>
        <translation>已删除 {name}。</translation>
    </message>
    <message>
        <source>Testing {name}…</source>
        <translation>正在测试 {name}…</translation>
    </message>
    <message>
        <source>Connected: {who}</source>
        <translation>连接成功：{who}</translation>
    </message>
    <message>
        <source>typed in</source>
        <translation>手动输入</translation>
    </message>
    <message>
        <source>environment ({name})</source>
        <translation>环境变量（{name}）</translation>
    </message>
    <message>
        <source>Nothing to import: no keys were found in those places.</source>
        <translation>没有可导入的内容：这些位置都没有找到密钥。</translation>
    </message>
    <message>
        <source>Imported: {added}.</source>
        <translation>已导入：{added}。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Already there (kept): {names}.</source>
        <translation>已存在（保留）：{names}。</translation>
    </message>
</context>
<context>
    <name>AuditDialog</name>
    <message>
        <source>Audit log of cloud actions</source>
        <translation>云操作审计日志</translation>
    </message>
    <message>
        <source>LabGPU&apos;s calls</source>
        <translation>LabGPU 的调用</translation>
    </message>
    <message>
        <source>Cloud events</source>
        <translation>云事件</translation>
    </message>
    <message>
        <source>Time (local)</source>
        <translation>时间（本地）</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账号</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Request id</source>
        <translation>请求 ID</translation>
    </message>
    <message>
        <source>Detail</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>{n} entries, newest first.</source>
        <translation>共 {n} 条，最新的在前。</translation>
    </message>
    <message>
        <source>launch</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>start</source>
        <translation>开机</translation>
    </message>
    <message>
        <source>stop</source>
        <translation>关机</translation>
    </message>
    <message>
        <source>terminate</source>
        <translation>销毁</translation>
    </message>
    <message>
        <source>found after restart</source>
        <translation>重启后找回</translation>
    </message>
    <message>
        <source>alerted: a cloud call not made by LabGPU</source>
        <translation>已告警：一次不是 LabGPU 发起的云调用</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>error {code}</source>
        <translation>错误 {code}</translation>
    </message>
    <message>
        <source>Export the audit log</source>
        <translation>导出审计日志</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Wrote {n} entries to {path}.</source>
        <translation>已将 {n} 条写入 {path}。</translation>
    </message>
</context>
<context>
    <name>CloudEventsView</name>
    <message>
        <source>Account:</source>
        <translation>账号：</translation>
    </message>
    <message>
        <source>Since:</source>
        <translation>时间范围：</translation>
    </message>
    <message>
        <source>the last 24 hours</source>
        <translation>最近 24 小时</translation>
    </message>
    <message>
        <source>the last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>the last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <source>the last 90 days</source>
        <translation>最近 90 天</translation>
    </message>
    <message>
        <source>Read events</source>
        <translation>读取事件</translation>
    </message>
    <message>
        <source>Time (local)</source>
        <translation>时间（本地）</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Source address</source>
        <translation>来源地址</translation>
    </message>
    <message>
        <source>Made by LabGPU</source>
        <translation>由 LabGPU 发起</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Choose an account and read its cloud&apos;s history of API calls: the calls LabGPU did not make are marked.</source>
        <translation>选择一个账号并读取其云平台的 API 调用历史：不是 LabGPU 发起的调用会被标出。</translation>
    </message>
    <message>
        <source>No account of a cloud whose API call history LabGPU can read.</source>
        <translation>没有可以读取 API 调用历史的云账号。</translation>
    </message>
    <message>
        <source>Reading the cloud&apos;s events of {account}…</source>
        <translation>正在读取 {account} 的云事件…</translation>
    </message>
    <message>
        <source>Reading the events of region {region}…</source>
        <translation>正在读取地域 {region} 的事件…</translation>
    </message>
    <message>
        <source>Not made by LabGPU: {why}</source>
        <translation>不是 LabGPU 发起：{why}</translation>
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
        <source>{total} calls read from {service} ({regions}); {n} not made by LabGPU, {new} alerted now.</source>
        <translation>已从 {service}（{regions}）读取 {total} 条调用；其中 {n} 条不是 LabGPU 发起，本次新告警 {new} 条。</translation>
    </message>
</context>
<context>
    <name>CloudUi</name>
    <message>
        <source>{d} d {h} h</source>
        <translation>{d} 天 {h} 小时</translation>
    </message>
    <message>
        <source>{h} h {m} min</source>
        <translation>{h} 小时 {m} 分</translation>
    </message>
    <message>
        <source>{m} min {s} s</source>
        <translation>{m} 分 {s} 秒</translation>
    </message>
</context>
<context>
    <name>InstancesPage</name>
    <message>
        <source>pending</source>
        <translation>创建中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>关机中</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已关机</translation>
    </message>
    <message>
        <source>stopped, still billing</source>
        <translation>已关机，仍在计费</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>开机中</translation>
    </message>
    <message>
        <source>terminating</source>
        <translation>销毁中</translation>
    </message>
    <message>
        <source>terminated</source>
        <translation>已销毁</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Launch…</source>
        <translation>创建…</translation>
    </message>
    <message>
        <source>Launch a GPU instance (Ctrl+L)</source>
        <translation>创建 GPU 实例（Ctrl+L）</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开机</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>关机</translation>
    </message>
    <message>
        <source>Terminate…</source>
        <translation>销毁…</translation>
    </message>
    <message>
        <source>Copy SSH command</source>
        <translation>复制 SSH 命令</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Ask every account&apos;s cloud now (F5)</source>
        <translation>立即向所有账号的云端查询（F5）</translation>
    </message>
    <message>
        <source>Audit log…</source>
        <translation>审计日志…</translation>
    </message>
    <message>
        <source>Edit guards…</source>
        <translation>编辑守护…</translation>
    </message>
    <message>
        <source>Idle, budget, maximum runtime and process guards of this instance</source>
        <translation>此实例的空闲、预算、最长运行时间和进程守护</translation>
    </message>
    <message>
        <source>Spot recovery…</source>
        <translation>竞价回收恢复…</translation>
    </message>
    <message>
        <source>What LabGPU does by itself when this spot instance is reclaimed</source>
        <translation>这台竞价实例被回收时，LabGPU 会自动做什么</translation>
    </message>
    <message>
        <source>Monthly report…</source>
        <translation>月度报告…</translation>
    </message>
    <message>
        <source>Show terminated</source>
        <translation>显示已销毁</translation>
    </message>
    <message>
        <source>isolated (restorable)</source>
        <translation>已隔离（可恢复）</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账号</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Billing</source>
        <translation>计费</translation>
    </message>
    <message>
        <source>Public IP</source>
        <translation>公网 IP</translation>
    </message>
    <message>
        <source>Name, type</source>
        <translation>名称、规格</translation>
    </message>
    <message>
        <source>Cloud, zone</source>
        <translation>云厂商、可用区</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>运行时长</translation>
    </message>
    <message>
        <source>Private IP</source>
        <translation>内网 IP</translation>
    </message>
    <message>
        <source>Price/h</source>
        <translation>每小时价格</translation>
    </message>
    <message>
        <source>Cost so far</source>
        <translation>累计费用</translation>
    </message>
    <message>
        <source>Projected</source>
        <translation>预计</translation>
    </message>
    <message>
        <source>Guards</source>
        <translation>守护</translation>
    </message>
    <message>
        <source>Run total</source>
        <translation>运行合计</translation>
    </message>
    <message>
        <source>{n}/{count} · {total}</source>
        <translation>第 {n}/{count} 台 · {total}</translation>
    </message>
    <message>
        <source>Run {run}: one piece of work across its instances; its cost is theirs summed.</source>
        <translation>运行 {run}：跨多台实例的同一项工作；它的费用是这些实例费用之和。</translation>
    </message>
    <message>
        <source>No LabGPU instance. Launch one from an offer (Offers page) or with Launch…; instances LabGPU launched elsewhere appear here too.</source>
        <translation>没有 LabGPU 实例。可从报价（“GPU 报价”页）或“创建…”创建；在别处由 LabGPU 创建的实例也会显示在这里。</translation>
    </message>
    <message>
        <source>Checking with the clouds…</source>
        <translation>正在向云端核对…</translation>
    </message>
    <message>
        <source>No cloud account yet, so nothing was checked: add one on the Accounts page (Ctrl+4).</source>
        <translation>还没有云账号，所以没有核对任何内容：请在“云账号”页添加一个（Ctrl+4）。</translation>
    </message>
    <message>
        <source>Checked with the clouds at {time}; again every minute (F5 now).</source>
        <translation>已于 {time} 与云端核对；每分钟自动核对一次（按 F5 立即核对）。</translation>
    </message>
    <message>
        <source>Account {name} could not be checked: {message} {hint}</source>
        <translation>无法核对账号 {name}：{message} {hint}</translation>
    </message>
    <message>
        <source>The clouds could not be checked: {message} {hint}</source>
        <translation>无法与云端核对：{message} {hint}</translation>
    </message>
    <message>
        <source>spot</source>
        <translation>竞价</translation>
    </message>
    <message>
        <source>on demand</source>
        <translation>按量</translation>
    </message>
    <message>
        <source>budget reached</source>
        <translation>已达预算</translation>
    </message>
    <message>
        <source>budget in {time}</source>
        <translation>{time} 后达到预算</translation>
    </message>
    <message>
        <source>{cost} at max. runtime</source>
        <translation>到最长运行时间共 {cost}</translation>
    </message>
    <message>
        <source>{cost}/day</source>
        <translation>{cost}/天</translation>
    </message>
    <message>
        <source>{verb} {id}…</source>
        <translation>{verb} {id}…</translation>
    </message>
    <message>
        <source>{id} is starting; it bills again from now.</source>
        <translation>{id} 正在开机；从现在起重新计费。</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>正在开机</translation>
    </message>
    <message>
        <source>{id} cannot be stopped: {reason}.</source>
        <translation>{id} 无法停止：{reason}。</translation>
    </message>
    <message>
        <source>{id} stopped. {note}</source>
        <translation>{id} 已关机。{note}</translation>
    </message>
    <message>
        <source>Stopping</source>
        <translation>正在关机</translation>
    </message>
    <message>
        <source>{id} terminated: it no longer bills.</source>
        <translation>{id} 已销毁：不再计费。</translation>
    </message>
    <message>
        <source>Terminating</source>
        <translation>正在销毁</translation>
    </message>
    <message>
        <source>Copied: {command}</source>
        <translation>已复制：{command}</translation>
    </message>
</context>
<context>
    <name>LabGPU</name>
    <message>
        <source>Tencent Cloud refused the signature: the SecretKey does not match the SecretId.</source>
        <translation>腾讯云拒绝了签名：SecretKey 与 SecretId 不匹配。</translation>
    </message>
    <message>
        <source>Edit the account and paste the SecretKey again from the CAM console (API keys).</source>
        <translation>编辑账号，从访问管理（CAM）控制台的 API 密钥页重新粘贴 SecretKey。</translation>
    </message>
    <message>
        <source>Tencent Cloud does not know this SecretId (deleted or disabled key).</source>
        <translation>腾讯云不认识这个 SecretId（密钥已删除或已禁用）。</translation>
    </message>
    <message>
        <source>Create or enable an API key in the CAM console and edit the account.</source>
        <translation>在访问管理（CAM）控制台创建或启用 API 密钥，然后编辑账号。</translation>
    </message>
    <message>
        <source>The SecretId is not a valid Tencent Cloud API key id.</source>
        <translation>这个 SecretId 不是有效的腾讯云 API 密钥 ID。</translation>
    </message>
    <message>
        <source>Copy the SecretId (it starts with AKID) from the CAM console and edit the account.</source>
        <translation>从访问管理（CAM）控制台复制 SecretId（以 AKID 开头），然后编辑账号。</translation>
    </message>
    <message>
        <source>Tencent Cloud refused the request because this computer&apos;s clock is more than 5 minutes off.</source>
        <translation>腾讯云拒绝了请求：这台电脑的时钟偏差超过 5 分钟。</translation>
    </message>
    <message>
        <source>Fix the clock: turn on automatic time (NTP) in the system settings, then retry.</source>
        <translation>请校准时钟：在系统设置中打开自动对时（NTP），然后重试。</translation>
    </message>
    <message>
        <source>This API key may not do that: the CAM policy does not allow it ({detail}).</source>
        <translation>这个 API 密钥无权执行该操作：CAM 策略不允许（{detail}）。</translation>
    </message>
    <message>
        <source>Ask the account owner to grant QcloudCVMFullAccess and QcloudVPCFullAccess to this key&apos;s user.</source>
        <translation>请主账号为该密钥所属用户授予 QcloudCVMFullAccess 和 QcloudVPCFullAccess。</translation>
    </message>
    <message>
        <source>Tencent Cloud has no {instance_type} capacity left in {zone} right now.</source>
        <translation>腾讯云 {zone} 当前没有 {instance_type} 的余量。</translation>
    </message>
    <message>
        <source>Try another zone or instance type, or retry later.</source>
        <translation>换一个可用区或机型，或稍后重试。</translation>
    </message>
    <message>
        <source>{instance_type} is sold out in {zone}.</source>
        <translation>{instance_type} 在 {zone} 已售罄。</translation>
    </message>
    <message>
        <source>Try another zone of {region} or another instance type.</source>
        <translation>请尝试 {region} 的其他可用区或其他机型。</translation>
    </message>
    <message>
        <source>Tencent Cloud does not offer instance type {instance_type} in {zone}.</source>
        <translation>腾讯云在 {zone} 不提供机型 {instance_type}。</translation>
    </message>
    <message>
        <source>Refresh prices to see which types each zone sells, then pick one of those.</source>
        <translation>刷新价格查看各可用区在售的机型，然后从中选择。</translation>
    </message>
    <message>
        <source>Tencent Cloud does not sell {instance_type} in {zone} right now.</source>
        <translation>腾讯云目前在 {zone} 不售卖 {instance_type}。</translation>
    </message>
    <message>
        <source>Zone {zone} does not offer {instance_type}.</source>
        <translation>可用区 {zone} 不提供 {instance_type}。</translation>
    </message>
    <message>
        <source>Zone {zone} is sold out.</source>
        <translation>可用区 {zone} 已售罄。</translation>
    </message>
    <message>
        <source>Tencent Cloud does not support instance type {instance_type} for this launch.</source>
        <translation>腾讯云不支持以此方式启动机型 {instance_type}。</translation>
    </message>
    <message>
        <source>{instance_type} cannot be launched as a spot instance.</source>
        <translation>{instance_type} 不能以竞价实例方式启动。</translation>
    </message>
    <message>
        <source>Launch it on demand, or pick a type that Tencent Cloud sells as spot.</source>
        <translation>请按量计费启动，或选择腾讯云以竞价方式售卖的机型。</translation>
    </message>
    <message>
        <source>The system disk type {disk_type} is sold out in {zone}.</source>
        <translation>系统盘类型 {disk_type} 在 {zone} 已售罄。</translation>
    </message>
    <message>
        <source>Try another zone, or leave the disk type empty so Tencent Cloud picks one in stock.</source>
        <translation>请尝试其他可用区，或将硬盘类型留空，由腾讯云选择有库存的类型。</translation>
    </message>
    <message>
        <source>{instance_type} cannot use the system disk type {disk_type}.</source>
        <translation>{instance_type} 不能使用系统盘类型 {disk_type}。</translation>
    </message>
    <message>
        <source>Leave the account&apos;s disk type empty so Tencent Cloud picks one the type supports.</source>
        <translation>请将账户的硬盘类型留空，由腾讯云选择该机型支持的类型。</translation>
    </message>
    <message>
        <source>The default subnet in {zone} has no free addresses left.</source>
        <translation>{zone} 的默认子网已没有可用的 IP 地址。</translation>
    </message>
    <message>
        <source>Try another zone, or free addresses in the VPC console (release unused instances).</source>
        <translation>请尝试其他可用区，或在私有网络控制台释放地址（释放不再使用的实例）。</translation>
    </message>
    <message>
        <source>Tencent Cloud has no public IP addresses left in {region}.</source>
        <translation>腾讯云在 {region} 的公网 IP 已售罄。</translation>
    </message>
    <message>
        <source>Retry later or launch in another region.</source>
        <translation>请稍后重试，或在其他地域启动。</translation>
    </message>
    <message>
        <source>Tencent Cloud refused the SSH public key: it accepts OpenSSH RSA keys only.</source>
        <translation>腾讯云拒绝了该 SSH 公钥：它只接受 OpenSSH RSA 格式的密钥。</translation>
    </message>
    <message>
        <source>Launch with an RSA key (ssh-keygen -t rsa -b 3072) or let LabGPU make one.</source>
        <translation>请使用 RSA 密钥启动（ssh-keygen -t rsa -b 3072），或让 LabGPU 自动生成一个。</translation>
    </message>
    <message>
        <source>The spot maximum price {max_price} {currency}/h is below the current spot price ({price} {currency}/h) for {instance_type} in {zone}.</source>
        <translation>竞价最高价 {max_price} {currency}/小时 低于 {instance_type} 在 {zone} 的当前竞价（{price} {currency}/小时）。</translation>
    </message>
    <message>
        <source>Raise the maximum price to at least the current spot price, or launch on demand.</source>
        <translation>把最高价提高到不低于当前竞价，或改用按量计费。</translation>
    </message>
    <message>
        <source>Zone {zone} does not support this request ({detail}).</source>
        <translation>可用区 {zone} 不支持该请求（{detail}）。</translation>
    </message>
    <message>
        <source>Pick another zone of {region}.</source>
        <translation>请选择 {region} 的其他可用区。</translation>
    </message>
    <message>
        <source>The spot instance quota of this Tencent Cloud account is used up in {region}.</source>
        <translation>该腾讯云账号在 {region} 的竞价实例配额已用完。</translation>
    </message>
    <message>
        <source>Terminate unused spot instances, or ask for a higher spot quota (CVM console → Quotas), or launch on demand.</source>
        <translation>销毁不用的竞价实例，或申请提高竞价实例配额（云服务器控制台 → 配额），或改用按量计费。</translation>
    </message>
    <message>
        <source>The per-user spot instance quota is used up in {region}.</source>
        <translation>{region} 的单用户竞价实例配额已用完。</translation>
    </message>
    <message>
        <source>The pay-as-you-go instance quota of this account is used up in {zone}.</source>
        <translation>该账号在 {zone} 的按量计费实例配额已用完。</translation>
    </message>
    <message>
        <source>Terminate instances you no longer need, or ask for a higher pay-as-you-go instance quota (CVM console → Quotas).</source>
        <translation>销毁不再需要的实例，或申请提高按量计费实例配额（云服务器控制台 → 配额）。</translation>
    </message>
    <message>
        <source>The Tencent Cloud account balance is too low to start billing a new instance.</source>
        <translation>腾讯云账号余额不足，无法为新实例开始计费。</translation>
    </message>
    <message>
        <source>Top up the account in the Tencent Cloud billing console, then retry.</source>
        <translation>请在腾讯云费用中心充值，然后重试。</translation>
    </message>
    <message>
        <source>This instance cannot stop without charging (its type or billing mode does not allow it).</source>
        <translation>该实例不支持关机不收费（机型或计费模式不允许）。</translation>
    </message>
    <message>
        <source>Stop it anyway (it keeps billing the full price) or terminate it to stop all charges.</source>
        <translation>仍然关机（继续按全价计费），或销毁以停止所有计费。</translation>
    </message>
    <message>
        <source>Tencent Cloud is throttling this account&apos;s API calls.</source>
        <translation>腾讯云正在限制该账号的 API 调用频率。</translation>
    </message>
    <message>
        <source>Wait a minute and retry; close other tools using the same key.</source>
        <translation>等一分钟再试；关闭其他使用同一密钥的工具。</translation>
    </message>
    <message>
        <source>Tencent Cloud has no such instance ({detail}).</source>
        <translation>腾讯云没有这个实例（{detail}）。</translation>
    </message>
    <message>
        <source>Reload the instances list: it may have been terminated elsewhere.</source>
        <translation>重新加载实例列表：它可能已在别处被销毁。</translation>
    </message>
    <message>
        <source>Cannot reach Tencent Cloud at {endpoint}.</source>
        <translation>无法连接腾讯云接入点 {endpoint}。</translation>
    </message>
    <message>
        <source>Check the network connection and the account&apos;s endpoint, then retry: a retried launch never makes a second instance, and the instances list shows whether it went through.</source>
        <translation>检查网络连接和账号的接入点，然后重试：重试同一次创建绝不会多出一台实例，实例列表会显示它是否已创建。</translation>
    </message>
    <message>
        <source>Tencent Cloud at {endpoint} answered with an HTTP error.</source>
        <translation>腾讯云接入点 {endpoint} 返回了 HTTP 错误。</translation>
    </message>
    <message>
        <source>Check the account&apos;s endpoint (for the international site use cvm.intl.tencentcloudapi.com), then retry.</source>
        <translation>检查账号的接入点（国际站请用 cvm.intl.tencentcloudapi.com），然后重试。</translation>
    </message>
    <message>
        <source>Tencent Cloud refused {action}: {detail}</source>
        <translation>腾讯云拒绝了 {action}：{detail}</translation>
    </message>
    <message>
        <source>Check the request in the CVM console; the error code tells what to change.</source>
        <translation>请在云服务器控制台检查该请求；错误码说明了需要修改什么。</translation>
    </message>
    <message>
        <source>Tencent Cloud refused the credentials: {detail}</source>
        <translation>腾讯云拒绝了凭据：{detail}</translation>
    </message>
    <message>
        <source>Edit the account and check the SecretId and SecretKey in the CAM console.</source>
        <translation>编辑账号，并在访问管理（CAM）控制台核对 SecretId 和 SecretKey。</translation>
    </message>
    <message>
        <source>The Tencent Cloud SDK is not installed ({module}).</source>
        <translation>未安装腾讯云 SDK（{module}）。</translation>
    </message>
    <message>
        <source>Install it with: pip install tencentcloud-sdk-python-cvm tencentcloud-sdk-python-common</source>
        <translation>请安装：pip install tencentcloud-sdk-python-cvm tencentcloud-sdk-python-common</translation>
    </message>
    <message>
        <source>Use a host such as cvm.intl.tencentcloudapi.com or a URL such as http://127.0.0.1:9000.</source>
        <translation>请使用主机名（如 cvm.intl.tencentcloudapi.com）或 URL（如 http://127.0.0.1:9000）。</translation>
    </message>
    <message>
        <source>{region} is not a Tencent Cloud region this key can use.</source>
        <translation>{region} 不是该密钥可用的腾讯云地域。</translation>
    </message>
    <message>
        <source>Tencent Cloud API key {key} ({n} regions)</source>
        <translation>腾讯云 API 密钥 {key}（{n} 个地域）</translation>
    </message>
    <message>
        <source>Tencent Cloud listed no public images in {region}.</source>
        <translation>腾讯云在 {region} 没有列出任何公共镜像。</translation>
    </message>
    <message>
        <source>Pass an image id (--image) from the CVM console.</source>
        <translation>请从云服务器控制台找一个镜像 ID 并用 --image 传入。</translation>
    </message>
    <message>
        <source>No public GPU or Ubuntu image supports {instance_type} in {region}.</source>
        <translation>{region} 没有支持 {instance_type} 的公共 GPU 或 Ubuntu 镜像。</translation>
    </message>
    <message>
        <source>Pick an image id in the CVM console and pass it with --image.</source>
        <translation>在云服务器控制台选一个镜像 ID，用 --image 传入。</translation>
    </message>
    <message>
        <source>Registering the SSH public key with Tencent Cloud…</source>
        <translation>正在向腾讯云登记 SSH 公钥…</translation>
    </message>
    <message>
        <source>Security group: SSH from {cidr} only.</source>
        <translation>安全组：只允许来自 {cidr} 的 SSH。</translation>
    </message>
    <message>
        <source>Image {image}.</source>
        <translation>镜像 {image}。</translation>
    </message>
    <message>
        <source>GPU image {name} ({image}).</source>
        <translation>GPU 镜像 {name}（{image}）。</translation>
    </message>
    <message>
        <source>No public GPU image with CUDA found for {type}: using {name} ({image}); install the NVIDIA driver and CUDA yourself.</source>
        <translation>没有找到适用于 {type} 的带 CUDA 的公共 GPU 镜像：改用 {name}（{image}）；请自行安装 NVIDIA 驱动和 CUDA。</translation>
    </message>
    <message>
        <source>Requesting spot {type} in {zone} (maximum {price} {currency}/h)…</source>
        <translation>正在 {zone} 申请竞价实例 {type}（最高 {price} {currency}/小时）…</translation>
    </message>
    <message>
        <source>Requesting pay-as-you-go {type} in {zone}…</source>
        <translation>正在 {zone} 申请按量计费实例 {type}…</translation>
    </message>
    <message>
        <source>Tencent Cloud accepted the launch but returned no instance id.</source>
        <translation>腾讯云接受了创建请求，但没有返回实例 ID。</translation>
    </message>
    <message>
        <source>Open the instances page: LabGPU lists every tagged instance.</source>
        <translation>打开“实例”页：LabGPU 会列出所有带标签的实例。</translation>
    </message>
    <message>
        <source>{instance_type} could not be created in {zone}: {detail}</source>
        <translation>{instance_type} 在 {zone} 创建失败：{detail}</translation>
    </message>
    <message>
        <source>Try another zone or instance type; nothing bills for a failed launch.</source>
        <translation>请尝试其他可用区或机型；创建失败的实例不会计费。</translation>
    </message>
    <message>
        <source>Instance {instance_id} failed to launch: {detail}</source>
        <translation>实例 {instance_id} 创建失败：{detail}</translation>
    </message>
    <message>
        <source>Try another zone or instance type; nothing keeps billing for a failed launch.</source>
        <translation>换一个可用区或机型；创建失败的实例不会继续计费。</translation>
    </message>
    <message>
        <source>Instance {instance_id} is still {state} after {seconds} s.</source>
        <translation>实例 {instance_id} 在 {seconds} 秒后仍处于 {state}。</translation>
    </message>
    <message>
        <source>It may still start: watch it on the instances page, and terminate it there if it never runs.</source>
        <translation>它可能仍会启动：请在“实例”页观察，若一直不运行就在那里销毁。</translation>
    </message>
    <message>
        <source>Tencent Cloud could not {operation} {instance_id}: {detail}</source>
        <translation>腾讯云无法对 {instance_id} 执行 {operation}：{detail}</translation>
    </message>
    <message>
        <source>Retry; if it keeps failing, check the instance in the CVM console.</source>
        <translation>请重试；如果一直失败，请在云服务器控制台检查该实例。</translation>
    </message>
    <message>
        <source>Stopped without charging: CPU, GPU and memory no longer bill; the cloud disks still bill, and the public IP may change when it starts again.</source>
        <translation>已关机不收费：CPU、GPU 和内存不再计费；云硬盘仍然计费，再次开机时公网 IP 可能改变。</translation>
    </message>
    <message>
        <source>Stopped, but this instance cannot stop without charging: it still bills the full hourly price. Terminate it to stop all charges.</source>
        <translation>已关机，但该实例不支持关机不收费：仍按每小时全价计费。销毁它才能停止所有计费。</translation>
    </message>
    <message>
        <source>Tencent Cloud</source>
        <translation>腾讯云</translation>
    </message>
    <message>
        <source>Tencent Cloud bills pay-as-you-go per second and settles the charge every hour.</source>
        <translation>腾讯云按量计费按秒计费，每小时结算一次。</translation>
    </message>
    <message>
        <source>SecretId</source>
        <translation>SecretId</translation>
    </message>
    <message>
        <source>SecretKey</source>
        <translation>SecretKey</translation>
    </message>
    <message>
        <source>optional: host or URL, e.g. http://127.0.0.1:9000</source>
        <translation>可选：主机名或 URL，例如 http://127.0.0.1:9000</translation>
    </message>
    <message>
        <source>International site (cvm.intl.tencentcloudapi.com, prices in USD)</source>
        <translation>国际站（cvm.intl.tencentcloudapi.com，价格以美元计）</translation>
    </message>
    <message>
        <source>its price APIs need a signed account request: refresh with a Tencent Cloud account</source>
        <translation>其价格 API 需要账号签名请求：请用腾讯云账号刷新</translation>
    </message>
    <message>
        <source>Tencent Cloud from TENCENTCLOUD_SECRET_ID/KEY</source>
        <translation>从 TENCENTCLOUD_SECRET_ID/KEY 导入腾讯云</translation>
    </message>
</context>
<context>
    <name>LaunchDialog</name>
    <message>
        <source>Register the SSH key</source>
        <translation>登记 SSH 密钥</translation>
    </message>
    <message>
        <source>Security group (SSH from your address only)</source>
        <translation>安全组（只允许你的地址 SSH）</translation>
    </message>
    <message>
        <source>Choose the image</source>
        <translation>选择镜像</translation>
    </message>
    <message>
        <source>Request the instance</source>
        <translation>申请实例</translation>
    </message>
    <message>
        <source>Try another zone</source>
        <translation>尝试其他可用区</translation>
    </message>
    <message>
        <source>Wait until it runs</source>
        <translation>等待实例运行</translation>
    </message>
    <message>
        <source>Launch a GPU instance</source>
        <translation>创建 GPU 实例</translation>
    </message>
    <message>
        <source>e.g. GN7.2XLARGE32 or g5.xlarge</source>
        <translation>例如 GN7.2XLARGE32 或 g5.xlarge</translation>
    </message>
    <message>
        <source>Any zone (tries each on capacity errors)</source>
        <translation>任意可用区（余量不足时逐个尝试）</translation>
    </message>
    <message>
        <source>Open the Accounts page</source>
        <translation>打开“云账号”页</translation>
    </message>
    <message>
        <source>automatic: a GPU image with CUDA/PyTorch, else Ubuntu</source>
        <translation>自动：带 CUDA/PyTorch 的 GPU 镜像，否则 Ubuntu</translation>
    </message>
    <message>
        <source>LabGPU key (created once, passphrase in the keyring)</source>
        <translation>LabGPU 密钥（只创建一次，口令存于密钥环）</translation>
    </message>
    <message>
        <source>Existing key:</source>
        <translation>已有密钥：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>detecting your public address…</source>
        <translation>正在检测你的公网地址…</translation>
    </message>
    <message>
        <source>Spot (cheaper, may be reclaimed)</source>
        <translation>竞价（更便宜，可能被回收）</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source> /h</source>
        <translation> /小时</translation>
    </message>
    <message>
        <source>Maximum price:</source>
        <translation>最高价：</translation>
    </message>
    <message>
        <source>Keep trying while it is sold out, for</source>
        <translation>售罄时继续尝试，持续</translation>
    </message>
    <message>
        <source>30 minutes</source>
        <translation>30 分钟</translation>
    </message>
    <message>
        <source>1 hour</source>
        <translation>1 小时</translation>
    </message>
    <message>
        <source>3 hours</source>
        <translation>3 小时</translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation>6 小时</translation>
    </message>
    <message>
        <source>12 hours</source>
        <translation>12 小时</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 天</translation>
    </message>
    <message>
        <source>LabGPU retries every few minutes across the zones and notifies you when it lands. A spot launch never bids more than its maximum price.</source>
        <translation>LabGPU 会每隔几分钟在各个可用区重试，抢到后通知你。竞价启动的出价绝不会超过它的最高价格。</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账号</translation>
    </message>
    <message>
        <source>Instance type</source>
        <translation>机型</translation>
    </message>
    <message>
        <source>Zone</source>
        <translation>可用区</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>镜像</translation>
    </message>
    <message>
        <source>System disk</source>
        <translation>系统盘</translation>
    </message>
    <message>
        <source>SSH key</source>
        <translation>SSH 密钥</translation>
    </message>
    <message>
        <source>SSH allowed from</source>
        <translation>允许 SSH 的来源</translation>
    </message>
    <message>
        <source>Billing</source>
        <translation>计费</translation>
    </message>
    <message>
        <source>If sold out</source>
        <translation>如果售罄</translation>
    </message>
    <message>
        <source>Copy SSH command</source>
        <translation>复制 SSH 命令</translation>
    </message>
    <message>
        <source>Change settings</source>
        <translation>修改设置</translation>
    </message>
    <message>
        <source>Stop waiting</source>
        <translation>停止等待</translation>
    </message>
    <message>
        <source>Launch</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>No {provider} account yet: add one on the Accounts page, then launch again.</source>
        <translation>还没有{provider}账号：请先在“云账号”页添加，然后再创建。</translation>
    </message>
    <message>
        <source>This account launches in {region}; the offer is in {offer}. Edit the account&apos;s region (or add one) to launch there.</source>
        <translation>该账号在 {region} 创建实例，而报价在 {offer}。要在那里创建，请修改账号地域（或另加一个账号）。</translation>
    </message>
    <message>
        <source>{provider} imports {types} keys: LabGPU&apos;s own {type} key ({path}) will be registered.</source>
        <translation>{provider} 导入 {types} 密钥：将注册 LabGPU 自己的 {type} 密钥（{path}）。</translation>
    </message>
    <message>
        <source>It is made on this first launch; its passphrase is kept in the keyring.</source>
        <translation>该密钥在本次首次启动时生成，其口令保存在系统密钥环中。</translation>
    </message>
    <message>
        <source>{path} is a key of type {type} ({fingerprint}): {provider} imports it.</source>
        <translation>{path} 是 {type} 类型的密钥（{fingerprint}）：{provider} 可以导入。</translation>
    </message>
    <message>
        <source>the offer</source>
        <translation>报价</translation>
    </message>
    <message>
        <source>Could not ask the cloud for zones: {message}</source>
        <translation>无法向云端查询可用区：{message}</translation>
    </message>
    <message>
        <source>Guards and watchdog</source>
        <translation>守护规则和看门狗</translation>
    </message>
    <message>
        <source>Wait for a free GPU</source>
        <translation>等待空闲 GPU</translation>
    </message>
    <message>
        <source>Your public address is {cidr}; only it (or the range you type, e.g. your VPN&apos;s) may connect to port 22.</source>
        <translation>你的公网地址是 {cidr}；只有它（或你填写的网段，如 VPN 网段）能连接 22 端口。</translation>
    </message>
    <message>
        <source>e.g. 203.0.113.7/32 or your VPN range</source>
        <translation>例如 203.0.113.7/32 或你的 VPN 网段</translation>
    </message>
    <message>
        <source>Your public address could not be found, so LabGPU will not guess: type the address or VPN range that may connect to SSH.</source>
        <translation>找不到你的公网地址，LabGPU 不会瞎猜：请填写允许连接 SSH 的地址或 VPN 网段。</translation>
    </message>
    <message>
        <source>The on-demand price is not known yet: refresh prices on the Offers page, or give a spot maximum.</source>
        <translation>还不知道按量价格：请在“GPU 报价”页刷新价格，或直接给出竞价最高价。</translation>
    </message>
    <message>
        <source>bundled catalog</source>
        <translation>内置价目表</translation>
    </message>
    <message>
        <source>live price</source>
        <translation>实时价格</translation>
    </message>
    <message>
        <source>On demand: {price}/h ({source}).</source>
        <translation>按量：{price}/小时（{source}）。</translation>
    </message>
    <message>
        <source>Spot maximum {price}/h = {pct} % of on-demand.</source>
        <translation>竞价最高价 {price}/小时 = 按量价格的 {pct}%。</translation>
    </message>
    <message>
        <source>Choose an SSH private key</source>
        <translation>选择 SSH 私钥</translation>
    </message>
    <message>
        <source>Choose an account and an instance type.</source>
        <translation>请选择账号和机型。</translation>
    </message>
    <message>
        <source>Type the address or range that may connect to SSH (e.g. 203.0.113.7/32): LabGPU never opens SSH to the whole internet.</source>
        <translation>请填写允许连接 SSH 的地址或网段（如 203.0.113.7/32）：LabGPU 绝不把 SSH 开放给整个互联网。</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>隐藏</translation>
    </message>
    <message>
        <source>The launch goes on; the instance appears on the Instances page.</source>
        <translation>创建会继续进行；实例会出现在“实例”页。</translation>
    </message>
    <message>
        <source>Launching {type} with {account}…</source>
        <translation>正在用 {account} 创建 {type}…</translation>
    </message>
    <message>
        <source>Waiting for {type} with {account}…</source>
        <translation>正在用 {account} 蹲 {type}…</translation>
    </message>
    <message>
        <source>{id} is {state} in {zone}.</source>
        <translation>{id} 在 {zone}，状态：{state}。</translation>
    </message>
    <message>
        <source>Public address: {ip}</source>
        <translation>公网地址：{ip}</translation>
    </message>
    <message>
        <source>It bills {price}/h until you stop or terminate it.</source>
        <translation>在你关机或销毁之前，它按 {price}/小时 计费。</translation>
    </message>
    <message>
        <source>SSH key registered: {path} ({type}).</source>
        <translation>已注册的 SSH 密钥：{path}（{type}）。</translation>
    </message>
    <message>
        <source>Launched</source>
        <translation>已创建</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>完成</translation>
    </message>
    <message>
        <source>Guards: {guards}</source>
        <translation>守护：{guards}</translation>
    </message>
    <message>
        <source>No cloud account yet: add one on the Accounts page, then launch again.</source>
        <translation>还没有云账号：请先在“云账号”页添加，然后再创建。</translation>
    </message>
    <message>
        <source>The launch did not complete</source>
        <translation>创建没有完成</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <source>Retries the same launch: it never makes a second instance.</source>
        <translation>重试的是同一次创建：绝不会多创建一台实例。</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
<context>
    <name>MonthReportDialog</name>
    <message>
        <source>Monthly cost report</source>
        <translation>月度费用报告</translation>
    </message>
    <message>
        <source>Month (UTC):</source>
        <translation>月份（UTC）：</translation>
    </message>
    <message>
        <source>Cost ({currency})</source>
        <translation>费用（{currency}）</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账号</translation>
    </message>
    <message>
        <source>Instance</source>
        <translation>实例</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Hours</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>In {currency}</source>
        <translation>折合 {currency}</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Reading the ledger…</source>
        <translation>正在读取账本…</translation>
    </message>
    <message>
        <source>The report could not be made: {message} {hint}</source>
        <translation>无法生成报告：{message} {hint}</translation>
    </message>
    <message>
        <source>account total</source>
        <translation>账号合计</translation>
    </message>
    <message>
        <source>run {run}: {instances}</source>
        <translation>运行 {run}：{instances}</translation>
    </message>
    <message>
        <source>Total {month}: {total}</source>
        <translation>{month} 合计：{total}</translation>
    </message>
    <message>
        <source>No instance ran in {month}.</source>
        <translation>{month} 没有运行过实例。</translation>
    </message>
    <message>
        <source>{n} instance(s) have no known price; their cost is not in the total.</source>
        <translation>{n} 个实例价格未知，其费用未计入合计。</translation>
    </message>
    <message>
        <source>{n} instance(s) in {accounts} account(s).</source>
        <translation>{accounts} 个账号中的 {n} 个实例。</translation>
    </message>
    <message>
        <source>Export the report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write {path}: {error}. Choose another folder.</source>
        <translation>无法写入 {path}：{error}。请选择其他文件夹。</translation>
    </message>
    <message>
        <source>{n} rows written to {path}.</source>
        <translation>已写入 {n} 行到 {path}。</translation>
    </message>
</context>
<context>
    <name>RecoveryDialog</name>
    <message>
        <source>Spot recovery of {name}</source>
        <translation>{name} 的竞价回收恢复</translation>
    </message>
</context>
<context>
    <name>RecoveryEditor</name>
    <message>
        <source>Spot recovery</source>
        <translation>竞价回收恢复</translation>
    </message>
    <message>
        <source>When the cloud reclaims the spot instance, LabGPU saves the latest checkpoint in the warning window, relaunches where there is capacity and resumes the job — by itself, while the window, the tray or `labgpu watch` runs.</source>
        <translation>云厂商回收竞价实例时，LabGPU 会在预警时间内保存最新的检查点，到有库存的地方重新启动，再接着跑你的任务——全自动，只要窗口、托盘或 `labgpu watch` 在运行。</translation>
    </message>
    <message>
        <source>{checkpoint} becomes the saved checkpoint&apos;s path on the new instance</source>
        <translation>{checkpoint} 会换成保存的检查点在新实例上的路径</translation>
    </message>
    <message>
        <source>Resume with:</source>
        <translation>续训命令：</translation>
    </message>
    <message>
        <source>on the instance, e.g. /root/ckpt</source>
        <translation>实例上的文件夹，例如 /root/ckpt</translation>
    </message>
    <message>
        <source>on this computer, e.g. ~/ckpt</source>
        <translation>这台电脑上的文件夹，例如 ~/ckpt</translation>
    </message>
    <message>
        <source>Checkpoints from:</source>
        <translation>检查点来自：</translation>
    </message>
    <message>
        <source>Saved to:</source>
        <translation>保存到：</translation>
    </message>
    <message>
        <source>on this computer, e.g. ~/project</source>
        <translation>这台电脑上的文件夹，例如 ~/project</translation>
    </message>
    <message>
        <source>on the new instance, e.g. /root/project</source>
        <translation>新实例上的文件夹，例如 /root/project</translation>
    </message>
    <message>
        <source>Code from:</source>
        <translation>代码来自：</translation>
    </message>
    <message>
        <source>Code to:</source>
        <translation>代码上传到：</translation>
    </message>
    <message>
        <source>then the region&apos;s other zones</source>
        <translation>再试本地域的其他可用区</translation>
    </message>
    <message>
        <source>Relaunch in:</source>
        <translation>重新启动在：</translation>
    </message>
    <message>
        <source>the same zone first,</source>
        <translation>先试同一可用区，</translation>
    </message>
    <message>
        <source>none; e.g. ap-shanghai, ap-beijing</source>
        <translation>不试；例如 ap-shanghai, ap-beijing</translation>
    </message>
    <message>
        <source>Then regions:</source>
        <translation>再试地域：</translation>
    </message>
    <message>
        <source>none; e.g. lab-ali or lab-ali:ecs.gn7i-c8g1.2xlarge</source>
        <translation>不试；例如 lab-ali 或 lab-ali:ecs.gn7i-c8g1.2xlarge</translation>
    </message>
    <message>
        <source>Then accounts:</source>
        <translation>再试账号：</translation>
    </message>
    <message>
        <source>spot</source>
        <translation>竞价</translation>
    </message>
    <message>
        <source>on demand</source>
        <translation>按量</translation>
    </message>
    <message>
        <source>Relaunch as:</source>
        <translation>重新启动方式：</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>不设上限</translation>
    </message>
    <message>
        <source>The most the whole run may cost, in the account&apos;s currency</source>
        <translation>整个运行最多花多少钱（账号的币种）</translation>
    </message>
    <message>
        <source>Run budget:</source>
        <translation>运行预算：</translation>
    </message>
    <message>
        <source>Launch attempts:</source>
        <translation>启动尝试次数：</translation>
    </message>
    <message>
        <source>Spot recovery: off</source>
        <translation>竞价回收恢复：关闭</translation>
    </message>
    <message>
        <source>the same zone</source>
        <translation>同一可用区</translation>
    </message>
    <message>
        <source>other zones</source>
        <translation>其他可用区</translation>
    </message>
    <message>
        <source>Spot recovery: resume with {resume}; relaunch in {where}; at most {n} launch attempts</source>
        <translation>竞价回收恢复：用 {resume} 续训；重新启动顺序 {where}；最多尝试启动 {n} 次</translation>
    </message>
</context>
<context>
    <name>TerminateConfirmDialog</name>
    <message>
        <source>Terminate {id}?</source>
        <translation>销毁 {id}？</translation>
    </message>
    <message>
        <source>{id} cannot be stopped ({reason}). Terminating it is the only way to end its bill, and it deletes its disk: pull what you need from it first.</source>
        <translation>{id} 无法停止（{reason}）。终止是结束其计费的唯一方式，且会删除其磁盘：请先从中拉取所需数据。</translation>
    </message>
    <message>
        <source>Terminating {id} ({detail}) deletes the instance and its system disk; data on it is lost. Billing stops.</source>
        <translation>销毁 {id}（{detail}）会删除实例及其系统盘，上面的数据会丢失。计费随之停止。</translation>
    </message>
    <message>
        <source>Type the instance id to confirm:</source>
        <translation>输入实例 ID 以确认：</translation>
    </message>
    <message>
        <source>Terminate</source>
        <translation>销毁</translation>
    </message>
</context>
</TS>
