<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>The Huawei Cloud SDK is not installed ({module}).</source>
        <translation>未安装华为云 SDK（{module}）。</translation>
    </message>
    <message>
        <source>Install it with: pip install huaweicloudsdkecs huaweicloudsdkcore</source>
        <translation>请安装：pip install huaweicloudsdkecs huaweicloudsdkcore</translation>
    </message>
    <message>
        <source>Use a host such as ecs.cn-north-4.myhuaweicloud.com or a URL such as http://127.0.0.1:9000.</source>
        <translation>请填写主机名（如 ecs.cn-north-4.myhuaweicloud.com）或 URL（如 http://127.0.0.1:9000）。</translation>
    </message>
    <message>
        <source>Huawei Cloud refused the signature ({error_code}): the secret access key (SK) does not match the access key (AK), the AK is unknown, or this computer's clock is more than 15 minutes off (after five failures in a row Huawei Cloud locks the AK for five minutes).</source>
        <translation>华为云拒绝了签名（{error_code}）：秘密访问密钥（SK）与访问密钥（AK）不匹配、AK 不存在，或本机时钟偏差超过 15 分钟（连续失败五次后，华为云会锁定该 AK 五分钟）。</translation>
    </message>
    <message>
        <source>Edit the account and paste the AK and SK again (My Credentials &gt; Access Keys; the SK is only in the credentials file downloaded when the key was created), and check that the system clock is right.</source>
        <translation>请编辑账号，重新粘贴 AK 和 SK（我的凭证 &gt; 访问密钥；SK 只在创建密钥时下载的凭证文件里），并确认系统时钟正确。</translation>
    </message>
    <message>
        <source>This Huawei Cloud access key may not call {action} ({error_code}).</source>
        <translation>此华为云访问密钥无权调用 {action}（{error_code}）。</translation>
    </message>
    <message>
        <source>Ask the account administrator to give this IAM user the ECS ReadOnlyAccess (or ECS FullAccess) policy in the project of {region}, or use an access key that has it.</source>
        <translation>请让账号管理员在 {region} 的项目中为此 IAM 用户授予 ECS ReadOnlyAccess（或 ECS FullAccess）策略，或改用具有该权限的访问密钥。</translation>
    </message>
    <message>
        <source>The endpoint {endpoint} has no such Huawei Cloud API ({error_code}).</source>
        <translation>终端节点 {endpoint} 上没有这个华为云 API（{error_code}）。</translation>
    </message>
    <message>
        <source>Check the account's region and endpoint: leave the endpoint empty to use ecs.&lt;region&gt;.myhuaweicloud.com.</source>
        <translation>请检查账号的区域和终端节点：终端节点留空即使用 ecs.&lt;region&gt;.myhuaweicloud.com。</translation>
    </message>
    <message>
        <source>Huawei Cloud is limiting this account's requests right now ({error_code}).</source>
        <translation>华为云正在限制此账号的请求频率（{error_code}）。</translation>
    </message>
    <message>
        <source>Wait a minute and retry.</source>
        <translation>请等一分钟后重试。</translation>
    </message>
    <message>
        <source>LabGPU could not find this account's project in Huawei Cloud region {region}: {provider_message}</source>
        <translation>LabGPU 找不到此账号在华为云区域 {region} 的项目：{provider_message}</translation>
    </message>
    <message>
        <source>Check the account's region: My Credentials &gt; API Credentials in the Huawei Cloud console lists the projects of each region (one per region is needed).</source>
        <translation>请检查账号的区域：华为云控制台的“我的凭证 &gt; API 凭证”列出了每个区域的项目（每个区域需要一个项目）。</translation>
    </message>
    <message>
        <source>LabGPU does not launch or manage Huawei Cloud instances yet.</source>
        <translation>LabGPU 暂不支持创建或管理华为云实例。</translation>
    </message>
    <message>
        <source>Use the Huawei Cloud console for instances; LabGPU tests the keys and syncs OBS buckets with this account.</source>
        <translation>实例请在华为云控制台中操作；LabGPU 用此账号检测密钥并同步 OBS 桶。</translation>
    </message>
    <message>
        <source>Huawei Cloud access key {key} ({region}: {n} availability zones)</source>
        <translation>华为云访问密钥 {key}（{region}：{n} 个可用区）</translation>
    </message>
    <message>
        <source>optional: host or URL, e.g. http://127.0.0.1:9000</source>
        <translation>可选：主机名或 URL，例如 http://127.0.0.1:9000</translation>
    </message>
    <message>
        <source>Install it with: pip install huaweicloudsdkbss</source>
        <translation>请安装：pip install huaweicloudsdkbss</translation>
    </message>
</context>
</TS>