<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AdvisorPage</name>
    <message>
        <source>Advisor</source>
        <translation>选型顾问</translation>
    </message>
    <message>
        <source>Which GPU, where, and what will it cost?</source>
        <translation>选哪种 GPU、在哪里租、要花多少钱？</translation>
    </message>
    <message>
        <source>1 Task</source>
        <translation>1 任务</translation>
    </message>
    <message>
        <source>2 Budget</source>
        <translation>2 预算</translation>
    </message>
    <message>
        <source>3 Data</source>
        <translation>3 数据</translation>
    </message>
    <message>
        <source>4 Framework</source>
        <translation>4 框架</translation>
    </message>
    <message>
        <source>5 Scale</source>
        <translation>5 规模</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>&lt; &amp;Back</source>
        <translation>&lt; 上一步(&amp;B)</translation>
    </message>
    <message>
        <source>Previous step (Alt+Left)</source>
        <translation>上一步（Alt+左方向键）</translation>
    </message>
    <message>
        <source>&amp;Next &gt;</source>
        <translation>下一步(&amp;N) &gt;</translation>
    </message>
    <message>
        <source>Next step (Enter)</source>
        <translation>下一步（回车）</translation>
    </message>
    <message>
        <source>Start &amp;over</source>
        <translation>重新开始(&amp;O)</translation>
    </message>
    <message>
        <source>Step 1 of 5: what are you training?</source>
        <translation>第 1 步（共 5 步）：你要训练什么？</translation>
    </message>
    <message>
        <source>The model size decides how much GPU memory you need.</source>
        <translation>模型大小决定了需要多少显存。</translation>
    </message>
    <message>
        <source>&amp;Computer vision (CNNs, ViTs, detection, segmentation)</source>
        <translation>计算机视觉（CNN、ViT、检测、分割）(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Other (speech, recommender, scientific)</source>
        <translation>其他（语音、推荐、科学计算）(&amp;O)</translation>
    </message>
    <message>
        <source>Custom size</source>
        <translation>自定义大小</translation>
    </message>
    <message>
        <source>&amp;Known model:</source>
        <translation>常见模型(&amp;K)：</translation>
    </message>
    <message>
        <source>Show in o&amp;ffers table</source>
        <translation>在报价表中显示(&amp;F)</translation>
    </message>
    <message>
        <source>N&amp;LP / LLM (BERT, GPT, Llama, T5)</source>
        <translation>自然语言处理 / 大模型（BERT、GPT、Llama、T5）(&amp;L)</translation>
    </message>
    <message>
        <source>Model &amp;size:</source>
        <translation>模型大小(&amp;S)：</translation>
    </message>
    <message>
        <source>Training or fine-tuning (Adam, mixed precision)</source>
        <translation>训练或微调（Adam，混合精度）</translation>
    </message>
    <message>
        <source>Inference only (fp16)</source>
        <translation>仅推理（fp16）</translation>
    </message>
    <message>
        <source>&amp;Workload:</source>
        <translation>工作负载(&amp;W)：</translation>
    </message>
    <message>
        <source>Step 2 of 5: how long, and how will you pay?</source>
        <translation>第 2 步（共 5 步）：用多久，怎么付费？</translation>
    </message>
    <message>
        <source>Short experiments pay by the hour; projects of several months can save with a monthly prepaid plan plus spot for extra runs.</source>
        <translation>短期实验按小时付费；持续数月的项目可以用包月预付费，再用竞价实例跑额外的任务来省钱。</translation>
    </message>
    <message>
        <source>&amp;Short experiment (hours to a few days)</source>
        <translation>短期实验（几小时到几天）(&amp;S)</translation>
    </message>
    <message>
        <source>On-demand, or spot if your job saves checkpoints.</source>
        <translation>按量付费；如果任务会保存检查点，可用竞价实例。</translation>
    </message>
    <message>
        <source>&amp;Project of months</source>
        <translation>持续数月的项目(&amp;P)</translation>
    </message>
    <message>
        <source>Compares a monthly prepaid price with hourly prices at your hours per month.</source>
        <translation>按你每月的使用小时数，比较包月预付价和按小时价格。</translation>
    </message>
    <message>
        <source> h per month</source>
        <translation> 小时/月</translation>
    </message>
    <message>
        <source>GPU &amp;hours per month:</source>
        <translation>每月 GPU 小时数(&amp;H)：</translation>
    </message>
    <message>
        <source>My job saves checkpoints and can be &amp;interrupted (spot)</source>
        <translation>我的任务会保存检查点，可以被中断（竞价实例）(&amp;I)</translation>
    </message>
    <message>
        <source>Extra time on spot for restarts and lost work</source>
        <translation>竞价实例因重启和丢失进度而多花的时间</translation>
    </message>
    <message>
        <source>Spot &amp;overhead:</source>
        <translation>竞价额外耗时(&amp;O)：</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>&amp;Max price per hour:</source>
        <translation>每小时最高价格(&amp;M)：</translation>
    </message>
    <message>
        <source>Step 3 of 5: how sensitive is your data?</source>
        <translation>第 3 步（共 5 步）：数据有多敏感？</translation>
    </message>
    <message>
        <source>Patient records, unpublished industry data or data under a contract usually need dedicated hardware in a given country.</source>
        <translation>病历、未公开的企业数据或受合同约束的数据，通常需要位于指定国家的专属硬件。</translation>
    </message>
    <message>
        <source>My data is &amp;sensitive: dedicated or bare-metal hardware only</source>
        <translation>我的数据是敏感数据：只用专属或裸金属硬件(&amp;S)</translation>
    </message>
    <message>
        <source>Anywhere</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>China (mainland)</source>
        <translation>中国大陆</translation>
    </message>
    <message>
        <source>United States</source>
        <translation>美国</translation>
    </message>
    <message>
        <source>Hong Kong</source>
        <translation>中国香港</translation>
    </message>
    <message>
        <source>Singapore</source>
        <translation>新加坡</translation>
    </message>
    <message>
        <source>Japan</source>
        <translation>日本</translation>
    </message>
    <message>
        <source>Germany</source>
        <translation>德国</translation>
    </message>
    <message>
        <source>United Kingdom</source>
        <translation>英国</translation>
    </message>
    <message>
        <source>Ireland</source>
        <translation>爱尔兰</translation>
    </message>
    <message>
        <source>Netherlands</source>
        <translation>荷兰</translation>
    </message>
    <message>
        <source>Sweden</source>
        <translation>瑞典</translation>
    </message>
    <message>
        <source>South Korea</source>
        <translation>韩国</translation>
    </message>
    <message>
        <source>India</source>
        <translation>印度</translation>
    </message>
    <message>
        <source>Australia</source>
        <translation>澳大利亚</translation>
    </message>
    <message>
        <source>Canada</source>
        <translation>加拿大</translation>
    </message>
    <message>
        <source>France</source>
        <translation>法国</translation>
    </message>
    <message>
        <source>Data must stay &amp;in:</source>
        <translation>数据必须留在(&amp;I)：</translation>
    </message>
    <message>
        <source>Sensitive data usually must stay in one country: choose it above (for example China (mainland)).</source>
        <translation>敏感数据通常必须留在某个国家：请在上面选择（例如“中国大陆”）。</translation>
    </message>
    <message>
        <source>Regions whose country LabGPU does not know are left out when a country is required. Hong Kong counts separately from mainland China.</source>
        <translation>要求指定国家时，LabGPU 不知道所属国家的地域会被排除。中国香港与中国大陆分开计算。</translation>
    </message>
    <message>
        <source>Step 4 of 5: which framework?</source>
        <translation>第 4 步（共 5 步）：用哪个框架？</translation>
    </message>
    <message>
        <source>&amp;PyTorch</source>
        <translation>&amp;PyTorch</translation>
    </message>
    <message>
        <source>Runs on every NVIDIA GPU in the catalog.</source>
        <translation>可在目录中所有 NVIDIA GPU 上运行。</translation>
    </message>
    <message>
        <source>&amp;TensorFlow</source>
        <translation>&amp;TensorFlow</translation>
    </message>
    <message>
        <source>&amp;JAX</source>
        <translation>&amp;JAX</translation>
    </message>
    <message>
        <source>Best on Ampere or newer (A100, A10, L4, H100): bf16 and fast XLA kernels. Older GPUs are ranked lower.</source>
        <translation>最适合 Ampere 及更新架构（A100、A10、L4、H100）：支持 bf16，XLA 内核更快。较老的 GPU 排名靠后。</translation>
    </message>
    <message>
        <source>vGPU and fractional-GPU offers are left out for training whatever the framework.</source>
        <translation>无论用什么框架，训练时都会排除 vGPU 和分数 GPU 报价。</translation>
    </message>
    <message>
        <source>Step 5 of 5: how many GPUs?</source>
        <translation>第 5 步（共 5 步）：需要多少 GPU？</translation>
    </message>
    <message>
        <source>&amp;One GPU</source>
        <translation>单块 GPU(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Several GPUs in one machine</source>
        <translation>一台机器上多块 GPU(&amp;S)</translation>
    </message>
    <message>
        <source>NVLink between GPUs helps.</source>
        <translation>GPU 之间有 NVLink 更好。</translation>
    </message>
    <message>
        <source>Several &amp;machines</source>
        <translation>多台机器(&amp;M)</translation>
    </message>
    <message>
        <source>Needs an RDMA-class network between machines: EFA, InfiniBand or RoCE.</source>
        <translation>机器之间需要 RDMA 级网络：EFA、InfiniBand 或 RoCE。</translation>
    </message>
    <message>
        <source>&amp;GPUs in total:</source>
        <translation>GPU 总数(&amp;G)：</translation>
    </message>
    <message>
        <source>Recommendations</source>
        <translation>推荐结果</translation>
    </message>
    <message>
        <source>The {top} best of {fit} offers that fit ({excluded} left out)</source>
        <translation>{fit} 个合适的报价中最好的 {top} 个（排除 {excluded} 个）</translation>
    </message>
    <message>
        <source>{fit} offers fit ({excluded} left out)</source>
        <translation>{fit} 个报价合适（排除 {excluded} 个）</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Offer</source>
        <translation>报价</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>On-demand / h</source>
        <translation>按量 / 小时</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>推荐理由</translation>
    </message>
    <message>
        <source>Cost of the selected offer</source>
        <translation>所选报价的费用</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Left out, and why</source>
        <translation>被排除的报价及原因</translation>
    </message>
    <message>
        <source>No offer fits every answer. The tab “Left out, and why” below says why each was left out; change an answer with Back.</source>
        <translation>没有报价能满足全部条件。下方“被排除的报价及原因”标签页列出了每个报价被排除的原因；可点“上一步”修改答案。</translation>
    </message>
    <message>
        <source>Show &amp;recommendations</source>
        <translation>查看推荐(&amp;R)</translation>
    </message>
    <message>
        <source>About {gb} GB of GPU memory: choose GPUs with at least {tier_gb} GB.</source>
        <translation>约需 {gb} GB 显存：请选择显存至少 {tier_gb} GB 的 GPU。</translation>
    </message>
    <message>
        <source>About {gb} GB of GPU memory: more than most single GPUs, so choose several GPUs (with FSDP / ZeRO-3) in step 5.</source>
        <translation>约需 {gb} GB 显存：超过大多数单块 GPU，请在第 5 步选择多块 GPU（配合 FSDP / ZeRO-3）。</translation>
    </message>
    <message>
        <source>The catalog could not be loaded; press F5 to try again.</source>
        <translation>无法加载报价目录；按 F5 重试。</translation>
    </message>
    <message>
        <source>Loading the offer catalog…</source>
        <translation>正在加载报价目录…</translation>
    </message>
    <message>
        <source>{count} offers in the catalog</source>
        <translation>目录中共有 {count} 个报价</translation>
    </message>
    <message>
        <source>Left out, and why ({count})</source>
        <translation>被排除的报价及原因（{count}）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>{count} × 100 million parameters</source>
        <translation>{count} 亿参数</translation>
    </message>
    <message>
        <source>{count} × 10 thousand parameters</source>
        <translation>{count} 万参数</translation>
    </message>
    <message>
        <source>{count} billion parameters</source>
        <translation>{count} 十亿参数</translation>
    </message>
    <message>
        <source>{count} million parameters</source>
        <translation>{count} 百万参数</translation>
    </message>
</context>
<context>
    <name>EstimatorWidget</name>
    <message>
        <source>Cost estimate</source>
        <translation>费用估算</translation>
    </message>
    <message>
        <source>Hours</source>
        <translation>小时数</translation>
    </message>
    <message>
        <source>Epochs × minutes per epoch</source>
        <translation>轮数 × 每轮分钟数</translation>
    </message>
    <message>
        <source>&amp;Plan by:</source>
        <translation>估算方式(&amp;P)：</translation>
    </message>
    <message>
        <source>&amp;Epochs:</source>
        <translation>训练轮数(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Minutes per epoch:</source>
        <translation>每轮分钟数(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;How many:</source>
        <translation>数量(&amp;H)：</translation>
    </message>
    <message>
        <source>Prepaid &amp;term (months):</source>
        <translation>预付费时长（月）(&amp;T)：</translation>
    </message>
    <message>
        <source>Wall-clock hours each instance runs.</source>
        <translation>每个实例实际运行的小时数。</translation>
    </message>
    <message>
        <source>Extra time on spot for restarts and work lost since the last checkpoint.</source>
        <translation>竞价实例因重启及丢失上次检查点之后的进度而多花的时间。</translation>
    </message>
    <message>
        <source>Months you would rent on a monthly prepaid plan.</source>
        <translation>按包月预付费方式租用的月数。</translation>
    </message>
    <message>
        <source>instances</source>
        <translation>个实例</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>undated</source>
        <translation>日期不明</translation>
    </message>
    <message>
        <source>Converted at 1 USD = {usd_cny} CNY ({source}, {day}); conversions are for comparison only, you are billed in {currency}.</source>
        <translation>按 1 美元 = {usd_cny} 元人民币换算（{source}，{day}）；换算仅供比较，实际按 {currency} 计费。</translation>
    </message>
    <message>
        <source>the offer&apos;s currency</source>
        <translation>报价的币种</translation>
    </message>
    <message>
        <source>Cost estimate: choose an offer</source>
        <translation>费用估算：请选择一个报价</translation>
    </message>
    <message>
        <source>Cost estimate: {provider} {instance_type} ({region}), {gpu_count} × {gpu_model}</source>
        <translation>费用估算：{provider} {instance_type}（{region}），{gpu_count} × {gpu_model}</translation>
    </message>
    <message>
        <source>all regions</source>
        <translation>所有地域</translation>
    </message>
    <message>
        <source>Billed in {currency}</source>
        <translation>以 {currency} 计费</translation>
    </message>
    <message>
        <source>CNY</source>
        <translation>人民币</translation>
    </message>
    <message>
        <source>USD</source>
        <translation>美元</translation>
    </message>
    <message>
        <source>On-demand</source>
        <translation>按量付费</translation>
    </message>
    <message>
        <source>Spot</source>
        <translation>竞价实例</translation>
    </message>
    <message>
        <source>Prepaid, 1 month</source>
        <translation>预付费，1 个月</translation>
    </message>
    <message>
        <source>Prepaid, {months} months</source>
        <translation>预付费，{months} 个月</translation>
    </message>
    <message>
        <source>Prepaid, 1 year</source>
        <translation>预付费，1 年</translation>
    </message>
    <message>
        <source>Prepaid, {years} years</source>
        <translation>预付费，{years} 年</translation>
    </message>
    <message>
        <source>no spot offer</source>
        <translation>无竞价实例</translation>
    </message>
    <message>
        <source>not listed</source>
        <translation>未列出</translation>
    </message>
    <message>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>fix the inputs above</source>
        <translation>请先修正上面的输入</translation>
    </message>
    <message>
        <source>Hours of &amp;work:</source>
        <translation>运行小时数(&amp;W)：</translation>
    </message>
    <message>
        <source>Spot overhea&amp;d (%):</source>
        <translation>竞价额外耗时 (%)(&amp;D)：</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Break-even: no prepaid price for this offer, so no break-even hours.</source>
        <translation>盈亏平衡：此报价没有预付费价格，无法计算盈亏平衡小时数。</translation>
    </message>
    <message>
        <source>no spot price</source>
        <translation>没有竞价价格</translation>
    </message>
    <message>
        <source>no on-demand price</source>
        <translation>没有按量价格</translation>
    </message>
    <message>
        <source>Prepaid beats on-demand above: {on_demand}
Prepaid beats spot above: {spot}</source>
        <translation>超过以下用量时预付费比按量便宜：{on_demand}
超过以下用量时预付费比竞价便宜：{spot}</translation>
    </message>
    <message>
        <source>Billing rule: {rule}</source>
        <translation>计费规则：{rule}</translation>
    </message>
</context>
<context>
    <name>LabGPU</name>
    <message>
        <source>Inference in fp16: 2 bytes per parameter = {gb} GB</source>
        <translation>fp16 推理：每个参数 2 字节 = {gb} GB</translation>
    </message>
    <message>
        <source>Activations and KV cache ≈ 20 % = {gb} GB</source>
        <translation>激活值和 KV 缓存 ≈ 20 % = {gb} GB</translation>
    </message>
    <message>
        <source>Training with Adam in mixed precision: 16–20 bytes per parameter = {gb}–{high} GB</source>
        <translation>混合精度 Adam 训练：每个参数 16–20 字节 = {gb}–{high} GB</translation>
    </message>
    <message>
        <source>Activations at a moderate batch size ≈ {gb} GB (larger batches or longer sequences need more)</source>
        <translation>中等批大小下的激活值 ≈ {gb} GB（更大的批或更长的序列需要更多）</translation>
    </message>
    <message>
        <source>CUDA context and framework ≈ {gb} GB</source>
        <translation>CUDA 上下文和框架 ≈ {gb} GB</translation>
    </message>
    <message>
        <source>price unknown</source>
        <translation>价格未知</translation>
    </message>
    <message>
        <source>Advisor: {task}, {params} parameters, ≥ {vram} GB, {scale}</source>
        <translation>选型顾问：{task}，{params} 参数，≥ {vram} GB，{scale}</translation>
    </message>
    <message>
        <source>computer vision</source>
        <translation>计算机视觉</translation>
    </message>
    <message>
        <source>NLP / LLM</source>
        <translation>自然语言处理 / 大模型</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>one GPU</source>
        <translation>单块 GPU</translation>
    </message>
    <message>
        <source>several GPUs in one machine</source>
        <translation>一台机器上多块 GPU</translation>
    </message>
    <message>
        <source>several machines</source>
        <translation>多台机器</translation>
    </message>
    <message>
        <source>1. {task}, {params} parameters ({mode}): about {gb} GB of GPU memory, so at least {need} GB</source>
        <translation>1. {task}，{params} 参数（{mode}）：约需 {gb} GB 显存，所以至少 {need} GB</translation>
    </message>
    <message>
        <source>2. Short experiment: pay by the hour, spot when the job can be interrupted</source>
        <translation>2. 短期实验：按小时付费，任务可中断时用竞价实例</translation>
    </message>
    <message>
        <source>2. Short experiment: pay by the hour, on-demand</source>
        <translation>2. 短期实验：按小时付费，按量实例</translation>
    </message>
    <message>
        <source>2. Project of months at {hours} h/month: prepaid where it wins, spot for extra runs</source>
        <translation>2. 持续数月的项目，每月 {hours} 小时：划算时用预付费，额外任务用竞价实例</translation>
    </message>
    <message>
        <source>any country</source>
        <translation>不限国家</translation>
    </message>
    <message>
        <source>3. Data: {kind}; must stay in: {where}</source>
        <translation>3. 数据：{kind}；必须留在：{where}</translation>
    </message>
    <message>
        <source>sensitive, dedicated hardware only</source>
        <translation>敏感，只用专属硬件</translation>
    </message>
    <message>
        <source>not sensitive</source>
        <translation>不敏感</translation>
    </message>
    <message>
        <source>3. Data: not sensitive, any region</source>
        <translation>3. 数据：不敏感，任意地域</translation>
    </message>
    <message>
        <source>4. Framework: {fw}</source>
        <translation>4. 框架：{fw}</translation>
    </message>
    <message>
        <source>training / fine-tuning</source>
        <translation>训练 / 微调</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>sold out in this region</source>
        <translation>该地域已售罄</translation>
    </message>
    <message>
        <source>no GPU in this offer</source>
        <translation>该报价不含 GPU</translation>
    </message>
    <message>
        <source>vGPU / fractional GPU: not suitable for training</source>
        <translation>vGPU / 分数 GPU：不适合训练</translation>
    </message>
    <message>
        <source>{have} GB per GPU, the job needs {need} GB</source>
        <translation>每块 GPU {have} GB，任务需要 {need} GB</translation>
    </message>
    <message>
        <source>has {n} GPUs: you would pay for {idle} idle ones</source>
        <translation>有 {n} 块 GPU：你要为 {idle} 块闲置的 GPU 付费</translation>
    </message>
    <message>
        <source>NVLink joins GPUs inside one machine only; several machines need RDMA (EFA, InfiniBand, RoCE)</source>
        <translation>NVLink 只连接同一台机器内的 GPU；多台机器需要 RDMA（EFA、InfiniBand、RoCE）</translation>
    </message>
    <message>
        <source>no RDMA-class network (EFA, InfiniBand, RoCE) between machines</source>
        <translation>机器之间没有 RDMA 级网络（EFA、InfiniBand、RoCE）</translation>
    </message>
    <message>
        <source>{have} GB per GPU, the job needs {need} GB per GPU even when sharded over {gpus} GPUs (FSDP / ZeRO-3, activation checkpointing)</source>
        <translation>每块 GPU {have} GB，即使分片到 {gpus} 块 GPU（FSDP / ZeRO-3、激活重计算），每块仍需 {need} GB</translation>
    </message>
    <message>
        <source>{have} GB per GPU ≥ {need} GB per GPU when sharded over {gpus} GPUs: needs FSDP / ZeRO-3 and activation checkpointing</source>
        <translation>每块 GPU {have} GB ≥ 分片到 {gpus} 块 GPU 后每块所需的 {need} GB：需要 FSDP / ZeRO-3 和激活重计算</translation>
    </message>
    <message>
        <source>{have} GB per GPU ≥ {need} GB needed: plain data parallel works</source>
        <translation>每块 GPU {have} GB ≥ 所需 {need} GB：普通数据并行即可</translation>
    </message>
    <message>
        <source>5. Scale: one GPU</source>
        <translation>5. 规模：单块 GPU</translation>
    </message>
    <message>
        <source>5. Scale: {scale}, {gpus} GPUs in total</source>
        <translation>5. 规模：{scale}，共 {gpus} 块 GPU</translation>
    </message>
    <message>
        <source>only 1 GPU in one machine, you asked for {want}</source>
        <translation>一台机器只有 1 块 GPU，你需要 {want} 块</translation>
    </message>
    <message>
        <source>only {n} GPUs in one machine, you asked for {want}</source>
        <translation>一台机器只有 {n} 块 GPU，你需要 {want} 块</translation>
    </message>
    <message>
        <source>1 machine × {n} GPUs, joined by {net}</source>
        <translation>1 台机器 × {n} 块 GPU，通过 {net} 互联</translation>
    </message>
    <message>
        <source>{nodes} machines × {n} GPUs, joined by {net}</source>
        <translation>{nodes} 台机器 × {n} 块 GPU，通过 {net} 互联</translation>
    </message>
    <message>
        <source>NVLink between the GPUs</source>
        <translation>GPU 之间有 NVLink</translation>
    </message>
    <message>
        <source>no NVLink: GPUs talk over PCIe, slower gradient exchange</source>
        <translation>没有 NVLink：GPU 之间走 PCIe，梯度交换较慢</translation>
    </message>
    <message>
        <source>{have} GB per GPU ≥ {need} GB needed</source>
        <translation>每块 GPU {have} GB ≥ 所需 {need} GB</translation>
    </message>
    <message>
        <source>vGPU / fractional GPU: inference only</source>
        <translation>vGPU / 分数 GPU：仅适合推理</translation>
    </message>
    <message>
        <source>shared hardware; sensitive data needs a dedicated or bare-metal offer</source>
        <translation>共享硬件；敏感数据需要专属或裸金属报价</translation>
    </message>
    <message>
        <source>dedicated / bare-metal hardware available</source>
        <translation>可用专属 / 裸金属硬件</translation>
    </message>
    <message>
        <source>region {region}: country not known, data must stay in {country}</source>
        <translation>地域 {region}：所属国家未知，数据必须留在 {country}</translation>
    </message>
    <message>
        <source>region {region} is in {where}, data must stay in {country}</source>
        <translation>地域 {region} 位于 {where}，数据必须留在 {country}</translation>
    </message>
    <message>
        <source>region {region} is in {country}</source>
        <translation>地域 {region} 位于 {country}</translation>
    </message>
    <message>
        <source>JAX: {gpu} is Ampere or newer (bf16, fast XLA kernels)</source>
        <translation>JAX：{gpu} 是 Ampere 或更新架构（支持 bf16，XLA 内核更快）</translation>
    </message>
    <message>
        <source>JAX: {gpu} is older than Ampere (no bf16): ranked as if {pct} % slower</source>
        <translation>JAX：{gpu} 早于 Ampere 架构（不支持 bf16）：按慢 {pct} % 排名</translation>
    </message>
    <message>
        <source>JAX: GPU {gpu} is not a known NVIDIA GPU</source>
        <translation>JAX：GPU {gpu} 不是已知的 NVIDIA GPU</translation>
    </message>
    <message>
        <source>{fw}: GPU {gpu} is not in the list of known NVIDIA GPUs; check driver support</source>
        <translation>{fw}：GPU {gpu} 不在已知 NVIDIA GPU 列表中；请确认驱动支持</translation>
    </message>
    <message>
        <source>spot {price}/h, {overhead} % extra time for interruptions included</source>
        <translation>竞价 {price}/小时，已计入中断导致的 {overhead} % 额外时间</translation>
    </message>
    <message>
        <source>{pct} % cheaper than on-demand</source>
        <translation>比按量便宜 {pct} %</translation>
    </message>
    <message>
        <source>on-demand {price}/h</source>
        <translation>按量 {price}/小时</translation>
    </message>
    <message>
        <source>no spot price known for this offer</source>
        <translation>此报价没有已知的竞价价格</translation>
    </message>
    <message>
        <source>prepaid {price}/month beats on-demand above {be} h/month; you plan {hours}</source>
        <translation>预付费 {price}/月，每月超过 {be} 小时就比按量便宜；你计划 {hours} 小时</translation>
    </message>
    <message>
        <source>add spot at {price}/h for extra runs beyond the prepaid base</source>
        <translation>预付费之外的额外任务可加用竞价实例，{price}/小时</translation>
    </message>
    <message>
        <source>spot {price}/h × {hours} h/month (+{overhead} % for interruptions) is the cheapest way</source>
        <translation>竞价 {price}/小时 × 每月 {hours} 小时（另加 {overhead} % 中断开销）最便宜</translation>
    </message>
    <message>
        <source>prepaid {price}/month for a steady base</source>
        <translation>稳定的基础负载可用预付费 {price}/月</translation>
    </message>
    <message>
        <source>on-demand {price}/h × {hours} h/month</source>
        <translation>按量 {price}/小时 × 每月 {hours} 小时</translation>
    </message>
    <message>
        <source>prepaid wins only above {be} h/month</source>
        <translation>每月超过 {be} 小时预付费才更划算</translation>
    </message>
    <message>
        <source>no prepaid price known</source>
        <translation>没有已知的预付费价格</translation>
    </message>
    <message>
        <source>{price} per hour is above your limit of {limit}</source>
        <translation>每小时 {price}，超过你的上限 {limit}</translation>
    </message>
    <message>
        <source>per FP16-TFLOP-hour</source>
        <translation>每 FP16-TFLOP·小时</translation>
    </message>
    <message>
        <source>per FP16-TFLOP-month</source>
        <translation>每 FP16-TFLOP·月</translation>
    </message>
    <message>
        <source>{cost} {unit} for the GPUs you use ({tflops} TFLOPS)</source>
        <translation>按你使用的 GPU 计 {unit} {cost}（{tflops} TFLOPS）</translation>
    </message>
    <message>
        <source>speed unknown (no FP16 TFLOPS figure): ranked after offers with a known speed</source>
        <translation>速度未知（没有 FP16 TFLOPS 数据）：排在速度已知的报价之后</translation>
    </message>
    <message>
        <source>price as of {date}</source>
        <translation>价格日期 {date}</translation>
    </message>
    <message>
        <source>price from an undated snapshot</source>
        <translation>价格来自未注明日期的快照</translation>
    </message>
    <message>
        <source>Google Cloud bills per second, after a one-minute minimum.</source>
        <translation>Google Cloud 按秒计费，最少计费 1 分钟。</translation>
    </message>
    <message>
        <source>Azure bills virtual machines per second of use.</source>
        <translation>Azure 虚拟机按使用秒数计费。</translation>
    </message>
    <message>
        <source>Access key ID (AK)</source>
        <translation>访问密钥 ID（AK）</translation>
    </message>
    <message>
        <source>Secret access key (SK)</source>
        <translation>秘密访问密钥（SK）</translation>
    </message>
    <message>
        <source>LabGPU does not launch on Huawei Cloud: its accounts are for OBS buckets only.</source>
        <translation>LabGPU 不在华为云上创建实例：华为云账号只用于 OBS 存储桶。</translation>
    </message>
    <message>
        <source>Azure</source>
        <translation>Azure</translation>
    </message>
    <message>
        <source>Google Cloud</source>
        <translation>谷歌云</translation>
    </message>
    <message>
        <source>the Cloud Billing Catalog API needs an API key</source>
        <translation>Cloud Billing Catalog API 需要 API 密钥</translation>
    </message>
    <message>
        <source>Huawei Cloud</source>
        <translation>华为云</translation>
    </message>
    <message>
        <source>Huawei Cloud bills pay-per-use per second and settles every hour.</source>
        <translation>华为云按需计费按秒计费，每小时结算。</translation>
    </message>
    <message>
        <source>its price API (BSS) needs a signed account request</source>
        <translation>其价格 API（BSS）需要账号签名请求</translation>
    </message>
    <message>
        <source>Lambda</source>
        <translation>Lambda</translation>
    </message>
    <message>
        <source>Lambda bills in one-minute increments from launch to termination (partial minutes counted as whole here) and invoices weekly.</source>
        <translation>Lambda 从启动到终止按 1 分钟为单位计费（此处不足 1 分钟按 1 分钟计），每周出账。</translation>
    </message>
    <message>
        <source>its instance-types API needs an API key</source>
        <translation>其实例类型 API 需要 API 密钥</translation>
    </message>
    <message>
        <source>Paperspace</source>
        <translation>Paperspace</translation>
    </message>
    <message>
        <source>Paperspace: billing increment unknown (time is prorated here); each machine also has a monthly access and storage fee.</source>
        <translation>Paperspace：计费粒度未知（此处按实际时长折算）；每台机器另有按月的访问和存储费。</translation>
    </message>
    <message>
        <source>its API needs an API key</source>
        <translation>其 API 需要 API 密钥</translation>
    </message>
    <message>
        <source>Billing rule unknown for this provider: time is prorated, the real bill may be higher.</source>
        <translation>该云厂商的计费规则未知：按实际时长折算，实际账单可能更高。</translation>
    </message>
    <message>
        <source>Enter a number.</source>
        <translation>请输入数字。</translation>
    </message>
    <message>
        <source>Required.</source>
        <translation>必填。</translation>
    </message>
    <message>
        <source>Must be more than 0.</source>
        <translation>必须大于 0。</translation>
    </message>
    <message>
        <source>Must be a whole number of at least 1.</source>
        <translation>必须是不小于 1 的整数。</translation>
    </message>
    <message>
        <source>Between 0 and 500 %.</source>
        <translation>须在 0 到 500 % 之间。</translation>
    </message>
    <message>
        <source>At most {max} hours (ten years).</source>
        <translation>最多 {max} 小时（十年）。</translation>
    </message>
    <message>
        <source>Between 1 and 120 months.</source>
        <translation>须在 1 到 120 个月之间。</translation>
    </message>
    <message>
        <source>Choose hours or epochs.</source>
        <translation>请选择按小时或按轮数。</translation>
    </message>
    <message>
        <source>price unknown — refresh with an account</source>
        <translation>价格未知——请用账号刷新</translation>
    </message>
    <message>
        <source>no spot price for this offer</source>
        <translation>此报价没有竞价价格</translation>
    </message>
    <message>
        <source>no prepaid price for this offer</source>
        <translation>此报价没有预付费价格</translation>
    </message>
    <message>
        <source>12 × the monthly price: no yearly discount is in the catalog</source>
        <translation>按 12 × 月价计算：目录中没有包年折扣</translation>
    </message>
    <message>
        <source>never: prepaid costs more than running all month</source>
        <translation>永远不会：预付费比整月按量运行还贵</translation>
    </message>
    <message>
        <source>{gpus} GPUs need {instances} instance(s) of {per} GPUs: you pay for {total} GPUs</source>
        <translation>{gpus} 块 GPU 需要 {instances} 个 {per} 卡实例：你要为 {total} 块 GPU 付费</translation>
    </message>
    <message>
        <source>billed as {billed} s per instance (minimum/increment)</source>
        <translation>每个实例按 {billed} 秒计费（最低计费时长/计费粒度）</translation>
    </message>
    <message>
        <source>the run needs {months} month(s) of prepaid time</source>
        <translation>这次运行需要 {months} 个月的预付费时长</translation>
    </message>
    <message>
        <source>{hours} h/month ({share} % of the month)</source>
        <translation>每月 {hours} 小时（占整月的 {share} %）</translation>
    </message>
    <message>
        <source>spot price as launched: the current spot price is not re-read for this provider</source>
        <translation>按启动时的竞价价格计算：这个服务商的当前竞价价格不会重新读取</translation>
    </message>
    <message>
        <source>spot price re-read while it runs</source>
        <translation>运行期间会重新读取竞价价格</translation>
    </message>
    <message>
        <source>disk not counted: its price is unknown</source>
        <translation>未计入磁盘：它的价格未知</translation>
    </message>
</context>
</TS>
