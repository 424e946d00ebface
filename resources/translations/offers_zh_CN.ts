<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>LabGPU</name>
    <message>
        <source>unknown — refresh with an account</source>
        <translation>未知 — 连接账户后刷新</translation>
    </message>
    <message>
        <source>live, just now</source>
        <translation>实时，刚刚</translation>
    </message>
    <message>
        <source>live {n} min ago</source>
        <translation>实时，{n} 分钟前</translation>
    </message>
    <message>
        <source>live {n} h ago</source>
        <translation>实时，{n} 小时前</translation>
    </message>
    <message>
        <source>live {n} days ago</source>
        <translation>实时，{n} 天前</translation>
    </message>
    <message>
        <source>fetched just now</source>
        <translation>刚刚获取</translation>
    </message>
    <message>
        <source>fetched {n} min ago</source>
        <translation>{n} 分钟前获取</translation>
    </message>
    <message>
        <source>fetched {n} h ago</source>
        <translation>{n} 小时前获取</translation>
    </message>
    <message>
        <source>fetched {n} days ago</source>
        <translation>{n} 天前获取</translation>
    </message>
    <message>
        <source>undated snapshot</source>
        <translation>无日期快照</translation>
    </message>
    <message>
        <source>bundled, {date}</source>
        <translation>内置，{date}</translation>
    </message>
    <message>
        <source>bundled, {date} — over a year old</source>
        <translation>内置，{date} — 已超过一年</translation>
    </message>
    <message>
        <source>dated {date}</source>
        <translation>日期 {date}</translation>
    </message>
    <message>
        <source>no price</source>
        <translation>无价格</translation>
    </message>
    <message>
        <source>your setting</source>
        <translation>你的设置</translation>
    </message>
    <message>
        <source>CFETS RMB central parity</source>
        <translation>中国外汇交易中心人民币汇率中间价</translation>
    </message>
    <message>
        <source>list GPU offers across clouds</source>
        <translation>列出各云的 GPU 报价</translation>
    </message>
    <message>
        <source>List GPU offers from the bundled catalog (and cached live prices). Prices are shown in each provider's own currency; --max-price converts with the default USD/CNY rate. Unknown prices are empty (null in JSON) and sort last.</source>
        <translation>列出内置目录（及缓存的实时价格）中的 GPU 报价。价格按各云服务商自己的币种显示；--max-price 按默认美元/人民币汇率换算。未知价格显示为空（JSON 中为 null），排在最后。</translation>
    </message>
    <message>
        <source>GPU model, matched loosely (A100 matches A100-40GB and A100-80GB); repeatable</source>
        <translation>GPU 型号，宽松匹配（A100 可匹配 A100-40GB 和 A100-80GB）；可重复</translation>
    </message>
    <message>
        <source>provider id ({ids}); repeatable</source>
        <translation>云服务商 ID（{ids}）；可重复</translation>
    </message>
    <message>
        <source>minimum VRAM per GPU</source>
        <translation>每块 GPU 的最小显存</translation>
    </message>
    <message>
        <source>exact number of GPUs</source>
        <translation>GPU 的确切数量</translation>
    </message>
    <message>
        <source>maximum on-demand (or, with --spot, spot) price per hour</source>
        <translation>每小时按量（加 --spot 时为竞价）价格上限</translation>
    </message>
    <message>
        <source>show every price in this currency, converted as the window does (the rate and its date are printed once); also the currency of --max-price (default: each provider's own currency, --max-price in USD)</source>
        <translation>所有价格按此币种显示，换算方式与窗口相同（汇率及其日期只打印一次）；也是 --max-price 的币种（默认：各云服务商自己的币种，--max-price 按美元）</translation>
    </message>
    <message>
        <source>sort as the app's offers table does: {keys} (vram = per GPU; price, price_per_tflop, price_per_gpu are accepted too; default per_tflop)</source>
        <translation>按应用报价表的方式排序：{keys}（vram = 每块 GPU；也接受 price、price_per_tflop、price_per_gpu；默认 per_tflop）</translation>
    </message>
    <message>
        <source>largest first (unknown values still last)</source>
        <translation>从大到小（未知值仍排最后）</translation>
    </message>
    <message>
        <source>only offers with a spot/preemptible market</source>
        <translation>只显示有竞价/抢占式实例的报价</translation>
    </message>
    <message>
        <source>region contains this text</source>
        <translation>地域包含此文字</translation>
    </message>
    <message>
        <source>print a JSON array</source>
        <translation>输出 JSON 数组</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Unknown provider {name}.</source>
        <translation>未知的云服务商 {name}。</translation>
    </message>
    <message>
        <source>Use one of: {known}.</source>
        <translation>请使用以下之一：{known}。</translation>
    </message>
    <message>
        <source>{option} must be a number, not {value}.</source>
        <translation>{option} 必须是数字，而不是 {value}。</translation>
    </message>
    <message>
        <source>Give a plain amount such as 1.5 (or leave it out).</source>
        <translation>请填写一个普通数值，例如 1.5（或不填）。</translation>
    </message>
    <message>
        <source>{option} must be zero or more.</source>
        <translation>{option} 必须大于或等于 0。</translation>
    </message>
    <message>
        <source>labgpu: warning: {problem}</source>
        <translation>labgpu：警告：{problem}</translation>
    </message>
    <message>
        <source>provider</source>
        <translation>云服务商</translation>
    </message>
    <message>
        <source>region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>instance_type</source>
        <translation>实例类型</translation>
    </message>
    <message>
        <source>gpu</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>n</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>vram</source>
        <translation>显存</translation>
    </message>
    <message>
        <source>fp16_tf</source>
        <translation>FP16 TF</translation>
    </message>
    <message>
        <source>vcpu</source>
        <translation>vCPU</translation>
    </message>
    <message>
        <source>ram</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>net_gbps</source>
        <translation>网络 Gbps</translation>
    </message>
    <message>
        <source>on_demand/h</source>
        <translation>按量/小时</translation>
    </message>
    <message>
        <source>spot/h</source>
        <translation>竞价/小时</translation>
    </message>
    <message>
        <source>prepaid/mo</source>
        <translation>包月/月</translation>
    </message>
    <message>
        <source>per_tflop_h</source>
        <translation>每 TFLOP 小时</translation>
    </message>
    <message>
        <source>cur</source>
        <translation>币种</translation>
    </message>
    <message>
        <source>price_age</source>
        <translation>价格时效</translation>
    </message>
    <message>
        <source>all regions</source>
        <translation>所有地域</translation>
    </message>
    <message>
        <source>{n} offer(s). 'unknown' = no public price: refresh with an account.</source>
        <translation>共 {n} 条报价。“未知”表示没有公开价格：可用账号刷新。</translation>
    </message>
    <message>
        <source>Prices converted to {currency} for comparison (billed in the provider's own currency) at {rate}.</source>
        <translation>价格已换算为 {currency} 以便比较（实际按云服务商自己的币种计费），汇率：{rate}。</translation>
    </message>
    <message>
        <source>Each provider's own currency; --currency CNY or USD converts. Rate for --max-price: {rate}</source>
        <translation>价格为各云服务商自己的币种；用 --currency CNY 或 USD 换算。--max-price 使用的汇率：{rate}</translation>
    </message>
</context>
<context>
    <name>OfferDetailsPanel</name>
    <message>
        <source>Select an offer to see all its details, where each figure comes from, and what a run would cost.</source>
        <translation>选择一个报价，查看全部详情、每个数字的来源，以及一次运行的费用。</translation>
    </message>
    <message>
        <source>Launch an instance of this offer…</source>
        <translation>用此报价创建实例…</translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation>云厂商：</translation>
    </message>
    <message>
        <source>Region:</source>
        <translation>地域：</translation>
    </message>
    <message>
        <source>GPU:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>VRAM:</source>
        <translation>显存：</translation>
    </message>
    <message>
        <source>FP16 tensor (dense):</source>
        <translation>FP16 张量（稠密）：</translation>
    </message>
    <message>
        <source>FP32:</source>
        <translation>FP32：</translation>
    </message>
    <message>
        <source>Memory bandwidth:</source>
        <translation>显存带宽：</translation>
    </message>
    <message>
        <source>vCPU / RAM:</source>
        <translation>vCPU / 内存：</translation>
    </message>
    <message>
        <source>Network:</source>
        <translation>网络：</translation>
    </message>
    <message>
        <source>Interconnect:</source>
        <translation>互联：</translation>
    </message>
    <message>
        <source>Whole server:</source>
        <translation>整台服务器：</translation>
    </message>
    <message>
        <source>On-demand:</source>
        <translation>按量计费：</translation>
    </message>
    <message>
        <source>Spot:</source>
        <translation>竞价：</translation>
    </message>
    <message>
        <source>Prepaid:</source>
        <translation>包年包月：</translation>
    </message>
    <message>
        <source>Per GPU-hour:</source>
        <translation>每卡·时：</translation>
    </message>
    <message>
        <source>Per FP16-TFLOP-hour:</source>
        <translation>每 FP16 TFLOPS·时：</translation>
    </message>
    <message>
        <source>Price date:</source>
        <translation>价格日期：</translation>
    </message>
    <message>
        <source>Price source:</source>
        <translation>价格来源：</translation>
    </message>
    <message>
        <source>GPU spec source:</source>
        <translation>GPU 规格来源：</translation>
    </message>
    <message>
        <source>Notes:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>LabGPU launches instances on {launchable}. For {provider}, rent it on their site, then add the server on the Hosts page from the SSH command they show.</source>
        <translation>LabGPU 可在 {launchable} 上创建实例。{provider} 请在其官网租用，然后在“主机”页用其提供的 SSH 命令添加服务器。</translation>
    </message>
    <message>
        <source>{native} (≈ {other}{suffix} at the display rate)</source>
        <translation>{native}（按显示汇率约 {other}{suffix}）</translation>
    </message>
    <message>
        <source>all regions</source>
        <translation>所有地域</translation>
    </message>
    <message>
        <source>{per_gpu} GB per GPU, {total} GB in all</source>
        <translation>每卡 {per_gpu} GB，共 {total} GB</translation>
    </message>
    <message>
        <source>unknown (no official figure)</source>
        <translation>未知（无官方数据）</translation>
    </message>
    <message>
        <source>{per_gpu} TFLOPS per GPU, {total} in all</source>
        <translation>每卡 {per_gpu} TFLOPS，共 {total}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>not stated</source>
        <translation>未注明</translation>
    </message>
    <message>
        <source>none stated</source>
        <translation>未注明</translation>
    </message>
    <message>
        <source>yes: all GPUs of one server (no other tenant on them)</source>
        <translation>是：独占一台服务器的全部 GPU（无其他租户）</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>/h</source>
        <translation>/时</translation>
    </message>
    <message>
        <source>no spot market</source>
        <translation>无竞价实例</translation>
    </message>
    <message>
        <source>/month</source>
        <translation>/月</translation>
    </message>
    <message>
        <source>public price list, no account</source>
        <translation>公开价格表，无需账号</translation>
    </message>
    <message>
        <source>with your account</source>
        <translation>用你的账号获取</translation>
    </message>
    <message>
        <source>{age} ({fetched}, {where})</source>
        <translation>{age}（{fetched}，{where}）</translation>
    </message>
    <message>
        <source>{age} ({days} days old)</source>
        <translation>{age}（{days} 天前）</translation>
    </message>
    <message>
        <source>undated snapshot: the source does not say when it was true</source>
        <translation>无日期快照：来源未说明价格的有效时间</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>OffersFilterBar</name>
    <message>
        <source>Search instance, GPU, region… (Ctrl+F)</source>
        <translation>搜索实例、GPU、地域…（Ctrl+F）</translation>
    </message>
    <message>
        <source>All providers</source>
        <translation>全部云厂商</translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation>云厂商：</translation>
    </message>
    <message>
        <source>any</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>GPU model; A100 matches A100-40GB and A100-80GB</source>
        <translation>GPU 型号；A100 可匹配 A100-40GB 和 A100-80GB</translation>
    </message>
    <message>
        <source>&amp;GPU:</source>
        <translation>GPU(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Region:</source>
        <translation>地域(&amp;R)：</translation>
    </message>
    <message>
        <source>Min &amp;VRAM/GPU:</source>
        <translation>每卡最小显存(&amp;V)：</translation>
    </message>
    <message>
        <source>GP&amp;Us:</source>
        <translation>GPU 数(&amp;U)：</translation>
    </message>
    <message>
        <source>Maximum on-demand price per hour (spot price when 'Spot available' is ticked). Unknown prices are hidden.</source>
        <translation>按量计费每小时最高价格（勾选“可用竞价实例”时为竞价价格）。价格未知的报价会被隐藏。</translation>
    </message>
    <message>
        <source>&amp;Max price/h:</source>
        <translation>最高价/时(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Spot available</source>
        <translation>可用竞价实例(&amp;S)</translation>
    </message>
    <message>
        <source>Reset filters</source>
        <translation>重置筛选</translation>
    </message>
    <message>
        <source>Show every offer (Esc)</source>
        <translation>显示全部报价（Esc）</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>{count} providers</source>
        <translation>{count} 家云厂商</translation>
    </message>
</context>
<context>
    <name>OffersPage</name>
    <message>
        <source>GPU offers</source>
        <translation>GPU 报价</translation>
    </message>
    <message>
        <source>Refresh &amp;live prices</source>
        <translation>刷新实时价格(&amp;L)</translation>
    </message>
    <message>
        <source>Ask every cloud account you added for today's prices, spot prices and sold-out types (Ctrl+R)</source>
        <translation>用已添加的每个云账号查询当前价格、竞价价格和售罄规格（Ctrl+R）</translation>
    </message>
    <message>
        <source>Fetch Azure's public price list (no account needed) and mark each price with the time it was fetched. The other clouds publish no price list that can be read without an account.</source>
        <translation>获取 Azure 的公开价格表（无需账号），并为每个价格标注获取时间。其他云没有无需账号即可读取的价格表。</translation>
    </message>
    <message>
        <source>CNY ¥</source>
        <translation>人民币 ¥</translation>
    </message>
    <message>
        <source>USD $</source>
        <translation>美元 $</translation>
    </message>
    <message>
        <source>Show prices in {currency} (display only; you are billed in the provider's currency)</source>
        <translation>以 {currency} 显示价格（仅用于显示；实际按云厂商的币种计费）</translation>
    </message>
    <message>
        <source>Clear ranking</source>
        <translation>清除排名</translation>
    </message>
    <message>
        <source>Refresh publi&amp;c prices</source>
        <translation>刷新公开价格(&amp;C)</translation>
    </message>
    <message>
        <source>Loading the offer catalog…</source>
        <translation>正在加载报价目录…</translation>
    </message>
    <message>
        <source>Fetching live prices from your cloud accounts…</source>
        <translation>正在从你的云账号获取实时价格…</translation>
    </message>
    <message>
        <source>{n} live prices fetched; these accounts failed: {names}.</source>
        <translation>已获取 {n} 个实时价格；以下账号失败：{names}。</translation>
    </message>
    <message>
        <source>{n} live prices fetched.</source>
        <translation>已获取 {n} 个实时价格。</translation>
    </message>
    <message>
        <source>No cloud account yet: add one on the Accounts page to fetch live prices.</source>
        <translation>还没有云账号：请在“云账号”页添加一个，以获取实时价格。</translation>
    </message>
    <message>
        <source>Live prices could not be fetched.</source>
        <translation>无法获取实时价格。</translation>
    </message>
    <message>
        <source>Fetching Azure's public price list…</source>
        <translation>正在获取 Azure 的公开价格表…</translation>
    </message>
    <message>
        <source>Fetching Azure's public prices: {what} ({number} of {total})…</source>
        <translation>正在获取 Azure 公开价格：{what}（第 {number} 个，共 {total} 个）…</translation>
    </message>
    <message>
        <source>{count} Azure prices fetched from the public price list at {when}.</source>
        <translation>已于 {when} 从公开价格表获取 {count} 个 Azure 价格。</translation>
    </message>
    <message>
        <source>No public price for {items}: the bundled price is kept.</source>
        <translation>{items} 没有公开价格：保留内置价格。</translation>
    </message>
    <message>
        <source>Prices not believable, so not used (the bundled price is kept): {prices}.</source>
        <translation>以下价格不可信，未被采用（保留内置价格）：{prices}。</translation>
    </message>
    <message>
        <source>The offer catalog could not be loaded. Reinstall LabGPU or press F5 to try again.</source>
        <translation>无法加载报价目录。请重新安装 LabGPU，或按 F5 重试。</translation>
    </message>
    <message>
        <source>1 catalog row could not be read and is not shown.</source>
        <translation>1 行目录数据无法读取，未显示。</translation>
    </message>
    <message>
        <source>{count} catalog rows could not be read and are not shown.</source>
        <translation>{count} 行目录数据无法读取，未显示。</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Catalog problems</source>
        <translation>目录问题</translation>
    </message>
    <message>
        <source>These rows were skipped; the rest of the catalog loaded.</source>
        <translation>已跳过这些行；目录其余部分已加载。</translation>
    </message>
    <message>
        <source>undated</source>
        <translation>无日期</translation>
    </message>
    <message>
        <source>1 USD = {rate} CNY · {source} · {day} · display only</source>
        <translation>1 美元 = {rate} 元 · {source} · {day} · 仅用于显示</translation>
    </message>
    <message>
        <source>{shown} of {total} offers</source>
        <translation>显示 {shown} / 共 {total} 个报价</translation>
    </message>
    <message>
        <source>No offer matches these filters. Press Esc or “Reset filters” to see all offers.</source>
        <translation>没有符合这些筛选条件的报价。按 Esc 或“重置筛选”查看全部报价。</translation>
    </message>
    <message>
        <source>Prices are per hour unless marked. Unknown prices come from providers that publish none: connect an account to fetch them.</source>
        <translation>除注明外均为每小时价格。价格未知表示该云厂商未公开价格：连接账户后可获取。</translation>
    </message>
    <message>
        <source>Live prices from your accounts: {live}.</source>
        <translation>来自你账户的实时价格：{live} 个。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Advisor: {title}&lt;/b&gt; — {recommended} recommended, {excluded} excluded (&lt;a href="excluded"&gt;show&lt;/a&gt;)</source>
        <translation>&lt;b&gt;选型顾问：{title}&lt;/b&gt; — 推荐 {recommended} 个，排除 {excluded} 个（&lt;a href="excluded"&gt;查看&lt;/a&gt;）</translation>
    </message>
    <message>
        <source>Nothing was excluded.</source>
        <translation>没有排除任何报价。</translation>
    </message>
    <message>
        <source>Excluded by the advisor</source>
        <translation>选型顾问排除的报价</translation>
    </message>
    <message>
        <source>Excluded offers and why: {count}</source>
        <translation>被排除的报价及原因：{count} 个</translation>
    </message>
</context>
<context>
    <name>OffersTableModel</name>
    <message>
        <source>Provider</source>
        <translation>云厂商</translation>
    </message>
    <message>
        <source>Region</source>
        <translation>地域</translation>
    </message>
    <message>
        <source>Instance type</source>
        <translation>实例规格</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>VRAM/GPU</source>
        <translation>每卡显存</translation>
    </message>
    <message>
        <source>FP16 TFLOPS</source>
        <translation>FP16 TFLOPS</translation>
    </message>
    <message>
        <source>vCPU</source>
        <translation>vCPU</translation>
    </message>
    <message>
        <source>RAM</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>On-demand/h</source>
        <translation>按量/时</translation>
    </message>
    <message>
        <source>Spot/h</source>
        <translation>竞价/时</translation>
    </message>
    <message>
        <source>Prepaid/month</source>
        <translation>包月/月</translation>
    </message>
    <message>
        <source>Per GPU-hour</source>
        <translation>每卡·时</translation>
    </message>
    <message>
        <source>Per FP16-TFLOP-hour</source>
        <translation>每 FP16 TFLOPS·时</translation>
    </message>
    <message>
        <source>Price age</source>
        <translation>价格时效</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>推荐理由</translation>
    </message>
    <message>
        <source>FP16 dense tensor TFLOPS of all GPUs of the instance</source>
        <translation>实例全部 GPU 的 FP16 稠密张量算力（TFLOPS）</translation>
    </message>
    <message>
        <source>On-demand price per hour divided by the instance's total FP16 dense TFLOPS</source>
        <translation>按量计费每小时价格除以实例 FP16 稠密总算力（TFLOPS）</translation>
    </message>
    <message>
        <source>On-demand price per hour divided by the number of GPUs</source>
        <translation>按量计费每小时价格除以 GPU 数</translation>
    </message>
    <message>
        <source>How old the price is: fetched N minutes ago (live with your account, or from a public price list), bundled with its date (flagged when over a year old), or an undated snapshot</source>
        <translation>价格有多旧：N 分钟前获取（用你的账号实时获取，或来自公开价格表）、内置并附日期（超过一年会标出），或无日期快照</translation>
    </message>
    <message>
        <source>This price is over a year old: check the provider's site before you rely on it.</source>
        <translation>这个价格已超过一年：使用前请到云厂商网站核对。</translation>
    </message>
    <message>
        <source>The source does not say when this price was true.</source>
        <translation>来源没有说明这个价格的有效时间。</translation>
    </message>
    <message>
        <source>Network bandwidth in Gbps</source>
        <translation>网络带宽（Gbps）</translation>
    </message>
    <message>
        <source>all regions</source>
        <translation>所有地域</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>no spot</source>
        <translation>无竞价</translation>
    </message>
    <message>
        <source>Billed in {cur}; converted for display at {rate}</source>
        <translation>按 {cur} 计费；显示时按 {rate} 换算</translation>
    </message>
</context>
<context>
    <name>SpotHistoryWidget</name>
    <message>
        <source>Spot price history</source>
        <translation>竞价价格历史</translation>
    </message>
    <message>
        <source>Show the last 7 days</source>
        <translation>显示最近 7 天</translation>
    </message>
    <message>
        <source>Ask the cloud, with your account, how this type's spot price moved.</source>
        <translation>用你的账号向云厂商查询此规格的竞价价格如何变化。</translation>
    </message>
    <message>
        <source>Open the Accounts page</source>
        <translation>打开“云账号”页</translation>
    </message>
    <message>
        <source>Reading the spot price history of {type} in {region}…</source>
        <translation>正在读取 {type} 在 {region} 的竞价价格历史…</translation>
    </message>
    <message>
        <source>{account} reports no spot price for {type} in {region} in the last 7 days: it may not be offered as spot there. Try another region.</source>
        <translation>{account} 在最近 7 天内没有 {type} 在 {region} 的竞价价格：该地域可能不提供此规格的竞价实例。请尝试其他地域。</translation>
    </message>
    <message>
        <source>The spot price history could not be read: {error}</source>
        <translation>无法读取竞价价格历史：{error}</translation>
    </message>
    <message>
        <source>Spot price ({currency}/h)</source>
        <translation>竞价价格（{currency}/小时）</translation>
    </message>
    <message>
        <source>on-demand {price}</source>
        <translation>按量 {price}</translation>
    </message>
    <message>
        <source>In zone {zone}</source>
        <translation>在可用区 {zone}，</translation>
    </message>
    <message>
        <source>Here</source>
        <translation>此处</translation>
    </message>
    <message>
        <source>{where} the spot price did not move in {days} days: {low}</source>
        <translation>{where}竞价价格 {days} 天内没有变动：{low}</translation>
    </message>
    <message>
        <source> ({pct} % of on-demand)</source>
        <translation>（按量价格的 {pct} %）</translation>
    </message>
    <message>
        <source>{where} the spot price moved {n} time(s) in {days} days, between {low} and {high}</source>
        <translation>{where}竞价价格 {days} 天内变动了 {n} 次，介于 {low} 与 {high} 之间</translation>
    </message>
    <message>
        <source>{n} other zone(s) have their own prices.</source>
        <translation>另有 {n} 个可用区各有自己的价格。</translation>
    </message>
    <message>
        <source> ({low_pct}–{high_pct} % of on-demand)</source>
        <translation>（按量价格的 {low_pct}–{high_pct} %）</translation>
    </message>
</context>
</TS>