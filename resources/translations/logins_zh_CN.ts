<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Logins</name>
    <message>
        <source>from {source}, an address LabGPU has never connected from</source>
        <translation>来自 {source}，LabGPU 从未从这个地址连接过</translation>
    </message>
    <message>
        <source>at {time}, inside your unusual hours ({hours})</source>
        <translation>在 {time}，处于你设定的异常时段（{hours}）内</translation>
    </message>
    <message>
        <source>as a user LabGPU did not set up ({user})</source>
        <translation>使用了 LabGPU 未设置的用户（{user}）</translation>
    </message>
    <message>
        <source>with a key LabGPU does not know ({key})</source>
        <translation>使用了 LabGPU 不认识的密钥（{key}）</translation>
    </message>
    <message>
        <source>The system journal on {host} is readable only by the groups adm and systemd-journal, and sudo asks {user} for a password. Add the user to one: sudo usermod -aG adm {user}</source>
        <translation>{host} 上的系统日志（journal）只有 adm 和 systemd-journal 组能读，而 sudo 要求 {user} 输入密码。请把该用户加入其中一个组：sudo usermod -aG adm {user}</translation>
    </message>
    <message>
        <source>{path} on {host} is not readable by {user}, and sudo asks for a password. Add the user to the group that reads it: sudo usermod -aG adm {user}</source>
        <translation>{host} 上的 {path} 对 {user} 不可读，而 sudo 要求输入密码。请把该用户加入能读它的组：sudo usermod -aG adm {user}</translation>
    </message>
    <message>
        <source>{host} keeps no SSH log LabGPU can read (no journal, no /var/log/auth.log or /var/log/secure). If its sshd writes elsewhere (sshd -E FILE), give the path: labgpu logins {host} --log FILE</source>
        <translation>{host} 上没有 LabGPU 能读的 SSH 日志（没有 journal，也没有 /var/log/auth.log 或 /var/log/secure）。如果它的 sshd 写到别处（sshd -E FILE），请给出路径：labgpu logins {host} --log FILE</translation>
    </message>
    <message>
        <source>Only the session records (wtmp) of {host} could be read: they show who logged in and from where, but not failed logins or which key was used.</source>
        <translation>只读到了 {host} 的会话记录（wtmp）：能看出谁从哪里登录过，但看不到失败的登录，也看不出用了哪把密钥。</translation>
    </message>
    <message>
        <source>No login record of {host} could be read: no SSH log and no session records (wtmp).</source>
        <translation>读不到 {host} 的任何登录记录：既没有 SSH 日志，也没有会话记录（wtmp）。</translation>
    </message>
    <message>
        <source>The log of {host} was rotated and compressed before LabGPU finished reading it: some logins between two checks were not read.</source>
        <translation>{host} 的日志在 LabGPU 读完之前已被轮转并压缩：两次检查之间的部分登录没有读到。</translation>
    </message>
    <message>
        <source>{host} has more log than one check reads ({mib} MiB); the rest is read at the next check.</source>
        <translation>{host} 的日志超过一次检查能读的量（{mib} MiB），其余部分在下次检查时读取。</translation>
    </message>
    <message>
        <source>The clock of {host} is {offset} off; login times are shown corrected.</source>
        <translation>{host} 的时钟偏差 {offset}；显示的登录时间已校正。</translation>
    </message>
    <message>
        <source>{count} log lines longer than 4 KiB were cut.</source>
        <translation>有 {count} 行日志超过 4 KiB，已截断。</translation>
    </message>
    <message>
        <source>{host} logged {count} accepted logins since the last check; the newest {kept} were kept.</source>
        <translation>自上次检查以来 {host} 记录了 {count} 次成功登录；保留了最新的 {kept} 次。</translation>
    </message>
    <message>
        <source>The log file {path} on {host} is {state}. Check the path (labgpu logins {host} --log FILE).</source>
        <translation>{host} 上的日志文件 {path}{state}。请检查路径（labgpu logins {host} --log FILE）。</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>不存在</translation>
    </message>
    <message>
        <source>not readable</source>
        <translation>不可读</translation>
    </message>
    <message>
        <source>{target}: SSH login by {user} from {source} at {time} ({method}) — {why}</source>
        <translation>{target}：{user} 于 {time} 从 {source} 通过 SSH 登录（{method}）——{why}</translation>
    </message>
    <message>
        <source>{target}: {count} failed SSH logins from {sources} addresses since {since}; most from {top}</source>
        <translation>{target}：自 {since} 以来有 {count} 次 SSH 登录失败，来自 {sources} 个地址；最多的是 {top}</translation>
    </message>
    <message>
        <source>an unknown time (before {first})</source>
        <translation>未知时间（早于 {first}）</translation>
    </message>
    <message>
        <source>new address</source>
        <translation>新地址</translation>
    </message>
    <message>
        <source>unusual hour</source>
        <translation>异常时段</translation>
    </message>
    <message>
        <source>unknown user</source>
        <translation>未知用户</translation>
    </message>
    <message>
        <source>unknown key</source>
        <translation>未知密钥</translation>
    </message>
    <message>
        <source>Not a time: {value}</source>
        <translation>不是有效的时间：{value}</translation>
    </message>
    <message>
        <source>Give a span such as 30m, 24h or 7d, or a date such as 2026-12-01 or 2026-12-01T08:00.</source>
        <translation>请给出时长，如 30m、24h 或 7d，或日期，如 2026-12-01 或 2026-12-01T08:00。</translation>
    </message>
    <message>
        <source>who logged in to a host over SSH, and which logins were unusual</source>
        <translation>谁通过 SSH 登录过主机，哪些登录异常</translation>
    </message>
    <message>
        <source>Reads the host&apos;s SSH login records (the journal, /var/log/auth.log or /var/log/secure, else wtmp) over SSH and shows the logins; an unusual one (an address LabGPU never connected from, your unusual hours, a user or key LabGPU did not set up) is alerted once.</source>
        <translation>通过 SSH 读取主机的登录记录（journal、/var/log/auth.log 或 /var/log/secure，否则 wtmp）并列出登录；异常的登录（LabGPU 从未用过的来源地址、你设定的异常时段、LabGPU 未设置的用户或密钥）只告警一次。</translation>
    </message>
    <message>
        <source>a saved host or a launched instance&apos;s name</source>
        <translation>已保存的主机或已创建实例的名称</translation>
    </message>
    <message>
        <source>how far back: 30m, 24h, 7d or a date (default 24h)</source>
        <translation>往前看多久：30m、24h、7d 或日期（默认 24h）</translation>
    </message>
    <message>
        <source>print the logins as JSON</source>
        <translation>以 JSON 输出登录记录</translation>
    </message>
    <message>
        <source>list failed logins one by one too</source>
        <translation>也逐条列出失败的登录</translation>
    </message>
    <message>
        <source>the host&apos;s sshd log file, where its sshd writes with -E FILE (kept for this host)</source>
        <translation>主机上 sshd 的日志文件（sshd 用 -E FILE 写入的位置；为该主机保存）</translation>
    </message>
    <message>
        <source>forget --log: read the system&apos;s journal or log again</source>
        <translation>忘掉 --log：重新读取系统的 journal 或日志</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The log path must be an absolute path on the host: {path}</source>
        <translation>日志路径必须是主机上的绝对路径：{path}</translation>
    </message>
    <message>
        <source>For example: labgpu logins {host} --log /var/log/sshd.log</source>
        <translation>例如：labgpu logins {host} --log /var/log/sshd.log</translation>
    </message>
    <message>
        <source>LabGPU</source>
        <translation>LabGPU</translation>
    </message>
    <message>
        <source>UNUSUAL: </source>
        <translation>异常：</translation>
    </message>
    <message>
        <source>accepted</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源地址</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>No accepted SSH login of {host} since {since}.</source>
        <translation>自 {since} 以来 {host} 没有成功的 SSH 登录。</translation>
    </message>
    <message>
        <source>{count} failed logins from {sources} addresses; most from {top}.</source>
        <translation>{count} 次登录失败，来自 {sources} 个地址；最多的是 {top}。</translation>
    </message>
    <message>
        <source>{n} unusual logins: if one was not you, stop the instance and change its keys.</source>
        <translation>{n} 次异常登录：如果其中有不是你本人的，请停止实例并更换密钥。</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the short reasons of an unusual login</comment>
        <translation>、</translation>
    </message>
    <message>
        <source>Unusual: </source>
        <translation>异常：</translation>
    </message>
    <message>
        <source>No failed logins in the last {days} days.</source>
        <translation>最近 {days} 天没有失败的登录。</translation>
    </message>
    <message>
        <source>{count} failed logins from {sources} addresses; most from {top}</source>
        <translation>{count} 次登录失败，来自 {sources} 个地址；最多的是 {top}</translation>
    </message>
    <message>
        <source>Recent logins — {host}</source>
        <translation>最近登录 — {host}</translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Read the host&apos;s new logins (F5)</source>
        <translation>读取主机上新的登录记录（F5）</translation>
    </message>
    <message>
        <source>Accepted logins only</source>
        <translation>只看成功的登录</translation>
    </message>
    <message>
        <source>All logins, failed ones too</source>
        <translation>全部登录，包括失败的</translation>
    </message>
    <message>
        <source>Log file on the host:</source>
        <translation>主机上的日志文件：</translation>
    </message>
    <message>
        <source>empty: the system&apos;s journal or log; or e.g. /var/log/sshd.log</source>
        <translation>留空：读系统的 journal 或日志；或填如 /var/log/sshd.log</translation>
    </message>
    <message>
        <source>Only for a server whose sshd writes its own log with -E FILE: that file&apos;s absolute path.</source>
        <translation>仅用于 sshd 用 -E FILE 单独写日志的服务器：填该文件的绝对路径。</translation>
    </message>
    <message>
        <source>Use this log &amp;file…</source>
        <translation>使用此日志文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Last read {time}.</source>
        <translation>上次读取：{time}。</translation>
    </message>
    <message>
        <source>Unusual logins: {n}. If one was not you, stop the instance and change its keys.</source>
        <translation>异常登录：{n} 次。如果其中有不是你本人的，请停止实例并更换密钥。</translation>
    </message>
    <message>
        <source>No accepted SSH login of {host} in the last {days} days.</source>
        <translation>最近 {days} 天 {host} 没有成功的 SSH 登录。</translation>
    </message>
    <message>
        <source>No SSH login of {host} in the last {days} days.</source>
        <translation>最近 {days} 天 {host} 没有 SSH 登录记录。</translation>
    </message>
    <message>
        <source>One of LabGPU&apos;s own sessions.</source>
        <translation>这是 LabGPU 自己的会话。</translation>
    </message>
    <message>
        <source>Reading the logins of {host}…</source>
        <translation>正在读取 {host} 的登录记录…</translation>
    </message>
    <message>
        <source>Read {time}.</source>
        <translation>已于 {time} 读取。</translation>
    </message>
    <message>
        <source>Check that the host is on and reachable (Hosts page → Connect), then press Refresh (F5).</source>
        <translation>请确认主机已开机且能连上（主机页 → 连接），然后点“刷新”（F5）。</translation>
    </message>
    <message>
        <source>Not read: the list shows what was read before.</source>
        <translation>未读取：列表显示的是之前读到的记录。</translation>
    </message>
    <message>
        <source>The log path must be an absolute path on the host, e.g. /var/log/sshd.log: {path}</source>
        <translation>日志路径必须是主机上的绝对路径，例如 /var/log/sshd.log：{path}</translation>
    </message>
    <message>
        <source>SSH logins</source>
        <translation>SSH 登录</translation>
    </message>
    <message>
        <source>Watch the SSH logins of watched hosts</source>
        <translation>监视被监控主机的 SSH 登录</translation>
    </message>
    <message>
        <source>While LabGPU watches a host, it reads the host&apos;s login records and tells you about an unusual login.</source>
        <translation>LabGPU 监控某台主机时，会读取它的登录记录，发现异常登录就通知你。</translation>
    </message>
    <message>
        <source>to</source>
        <translation>到</translation>
    </message>
    <message>
        <source>Unusual hours:</source>
        <translation>异常时段：</translation>
    </message>
    <message>
        <source>e.g. 10.8.0.0/24, 202.120.0.0/16</source>
        <translation>例如 10.8.0.0/24, 202.120.0.0/16</translation>
    </message>
    <message>
        <source>Your lab&apos;s, campus&apos; or VPN&apos;s networks (CIDR, comma-separated): a login from them is not unusual for its address.</source>
        <translation>你的实验室、校园网或 VPN 的网段（CIDR，用逗号分隔）：来自这些网段的登录不会因来源地址被判为异常。</translation>
    </message>
    <message>
        <source>Trusted net&amp;works:</source>
        <translation>可信网段(&amp;W)：</translation>
    </message>
    <message>
        <source> failed logins</source>
        <translation> 次失败登录</translation>
    </message>
    <message>
        <source>Failed logins are noise on a public address: one summary after this many, at most one per host every {hours} hours.</source>
        <translation>公网地址上的失败登录多是噪声：累计到这么多次才汇总通知一次，每台主机每 {hours} 小时最多一次。</translation>
    </message>
    <message>
        <source>&amp;Failed-login summary after:</source>
        <translation>失败登录汇总阈值(&amp;F)：</translation>
    </message>
    <message>
        <source>A login accepted from this hour up to (not including) that one, in your time zone, is unusual. The same hour twice: off.</source>
        <translation>按你的时区，从这个整点起到那个整点（不含）之间成功的登录算异常。两个整点相同：关闭。</translation>
    </message>
    <message>
        <source>Off: no hour is unusual.</source>
        <translation>已关闭：任何时段都不算异常。</translation>
    </message>
    <message>
        <source>Logins from {start}:00 to {end}:00 are unusual.</source>
        <translation>{start}:00 到 {end}:00 之间的登录算异常。</translation>
    </message>
    <message>
        <source>Not a network, not kept: {names}. Write a network as 10.8.0.0/24 or an address as 203.0.113.7.</source>
        <translation>不是网段，未保存：{names}。网段请写成 10.8.0.0/24，单个地址写成 203.0.113.7。</translation>
    </message>
</context>
</TS>
