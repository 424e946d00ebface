<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>{text!r} is not a bucket location.</source>
        <translation>{text!r} 不是存储桶位置。</translation>
    </message>
    <message>
        <source>Write it as s3://BUCKET/PREFIX (or cos://, oss://, obs://), e.g. cos://data-1250000000/imagenet.</source>
        <translation>请写成 s3://存储桶/前缀（或 cos://、oss://、obs://），例如 cos://data-1250000000/imagenet。</translation>
    </message>
    <message>
        <source>{bucket!r} cannot be the name of a bucket on {service}.</source>
        <translation>{bucket!r} 不能作为 {service} 的存储桶名称。</translation>
    </message>
    <message>
        <source>The object path {key!r} is refused: {why}.</source>
        <translation>已拒绝对象路径 {key!r}：{why}。</translation>
    </message>
    <message>
        <source>Use a prefix made of plain folder names separated by single '/', without '.' or '..'.</source>
        <translation>前缀请使用以单个“/”分隔的普通文件夹名，不要包含“.”或“..”。</translation>
    </message>
    <message>
        <source>it contains a '.' or '..' folder</source>
        <translation>其中包含“.”或“..”文件夹</translation>
    </message>
    <message>
        <source>it starts with '/' or contains '//'</source>
        <translation>它以“/”开头或包含“//”</translation>
    </message>
    <message>
        <source>it contains a control character or a backslash</source>
        <translation>其中包含控制字符或反斜杠</translation>
    </message>
    <message>
        <source>it is longer than the 1,024 bytes an object key may have</source>
        <translation>超过了对象键允许的 1,024 字节</translation>
    </message>
    <message>
        <source>An S3 bucket name has 3–63 lowercase letters, digits, '.' or '-', e.g. my-lab-data.</source>
        <translation>S3 存储桶名称由 3–63 个小写字母、数字、“.”或“-”组成，例如 my-lab-data。</translation>
    </message>
    <message>
        <source>A COS bucket name ends with your APPID, e.g. data-1250000000 (see the COS console).</source>
        <translation>COS 存储桶名称以你的 APPID 结尾，例如 data-1250000000（见 COS 控制台）。</translation>
    </message>
    <message>
        <source>An OSS bucket name has 3–63 lowercase letters, digits or '-'.</source>
        <translation>OSS 存储桶名称由 3–63 个小写字母、数字或“-”组成。</translation>
    </message>
    <message>
        <source>An OBS bucket name has 3–63 lowercase letters, digits, '.' or '-'.</source>
        <translation>OBS 存储桶名称由 3–63 个小写字母、数字、“.”或“-”组成。</translation>
    </message>
    <message>
        <source>{region!r} is not a region name.</source>
        <translation>{region!r} 不是地域名称。</translation>
    </message>
    <message>
        <source>Set the account's region, e.g. ap-guangzhou or us-east-1.</source>
        <translation>请设置账号的地域，例如 ap-guangzhou 或 us-east-1。</translation>
    </message>
    <message>
        <source>The Python package {module} is missing, so buckets cannot be used.</source>
        <translation>缺少 Python 包 {module}，无法使用存储桶。</translation>
    </message>
    <message>
        <source>Reinstall LabGPU (python3 main.py installs what it needs).</source>
        <translation>请重新安装 LabGPU（python3 main.py 会安装所需的包）。</translation>
    </message>
    <message>
        <source>{url} is a {service} location, but account '{account}' is a {provider} account.</source>
        <translation>{url} 是 {service} 的位置，但账号“{account}”属于 {provider}。</translation>
    </message>
    <message>
        <source>Choose an account of that cloud with --account (labgpu accounts lists them).</source>
        <translation>请用 --account 选择该云的账号（labgpu accounts 可列出账号）。</translation>
    </message>
</context>
</TS>