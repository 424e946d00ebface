"""Lists of names in a sentence, as each language writes them (the clouds a page names come from the
provider specs, so the sentence must read right for one, two or three)."""

from app.core import i18n


def test_join_names_in_english_and_chinese():
    try:
        i18n.set_language("en")
        assert i18n.join_names([]) == ""
        assert i18n.join_names(["AWS"]) == "AWS"
        assert i18n.join_names(["AWS", "Tencent Cloud"]) == "AWS and Tencent Cloud"
        assert i18n.join_names(["AWS", "Tencent Cloud", "Alibaba Cloud"], "or") == "AWS, Tencent Cloud or Alibaba Cloud"
        i18n.set_language("zh_CN")
        assert i18n.join_names(["AWS", "腾讯云", "阿里云"]) == "AWS、腾讯云和阿里云"
        assert i18n.join_names(["AWS", "腾讯云"], "or") == "AWS或腾讯云"
    finally:
        i18n.set_language("en")
