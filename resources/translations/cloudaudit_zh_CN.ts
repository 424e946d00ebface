<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>a console login</source>
        <translation>一次控制台登录</translation>
    </message>
    <message>
        <source>a change to a resource LabGPU manages that LabGPU did not make</source>
        <translation>对 LabGPU 管理的资源所做、但不是 LabGPU 发起的更改</translation>
    </message>
    <message>
        <source>made by LabGPU</source>
        <translation>由 LabGPU 发起</translation>
    </message>
    <message>
        <source>not on a resource LabGPU manages</source>
        <translation>不涉及 LabGPU 管理的资源</translation>
    </message>
    <message>
        <source>read-only</source>
        <translation>只读</translation>
    </message>
    <message>
        <source>The keys of account '{account}' may not read {service} ({error_code}), so LabGPU cannot check which calls it did not make.</source>
        <translation>账号“{account}”的密钥无权读取 {service}（{error_code}），因此 LabGPU 无法核对哪些调用不是它发起的。</translation>
    </message>
    <message>
        <source>In the cloud console, grant {permission} to the user of these keys, then run the check again.</source>
        <translation>请在云控制台为这组密钥所属的用户授予 {permission}，然后重新检查。</translation>
    </message>
    <message>
        <source>{cloud} has no API call history LabGPU can read.</source>
        <translation>{cloud} 没有 LabGPU 可以读取的 API 调用记录。</translation>
    </message>
    <message>
        <source>Look at the account's operation log in the cloud console.</source>
        <translation>请在云控制台查看该账号的操作日志。</translation>
    </message>
    <message>
        <source>read the cloud's own history of API calls on this account and mark the calls LabGPU did not make</source>
        <translation>读取云平台记录的该账号 API 调用历史，并标出不是 LabGPU 发起的调用</translation>
    </message>
    <message>
        <source>with --cloud: how far back, 30m, 24h, 7d or a date (default 24h)</source>
        <translation>配合 --cloud：回溯多久，如 30m、24h、7d 或一个日期（默认 24h）</translation>
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
        <source>NOT LABGPU: </source>
        <translation>非 LabGPU：</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
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
        <source>Source</source>
        <translation>来源</translation>
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
        <source>{service} shows no call that changed anything on account {account} since {since}.</source>
        <translation>自 {since} 以来，{service} 没有记录账号 {account} 上任何更改性的调用。</translation>
    </message>
    <message>
        <source>Only the newest {n} events were read: give a shorter --since to see the rest.</source>
        <translation>只读取了最新的 {n} 条事件：请用更短的 --since 查看其余事件。</translation>
    </message>
    <message>
        <source>Calls LabGPU did not make: {n} ({new} alerted now). If one was not you, disable the account's keys in the cloud console.</source>
        <translation>不是 LabGPU 发起的调用：{n} 条（本次新告警 {new} 条）。如果其中有不是你本人的操作，请在云控制台停用该账号的密钥。</translation>
    </message>
</context>
</TS>