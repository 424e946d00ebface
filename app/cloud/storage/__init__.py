"""Object storage as a sync endpoint: S3, Tencent COS, Alibaba OSS and Huawei OBS through their
S3-compatible APIs with boto3 (imported lazily). See docs/architecture.md, "Object storage"."""
