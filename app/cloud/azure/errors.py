"""Azure error codes: each documented code of the calls LabGPU makes becomes a CloudError with a
sentence and a next step (English and Chinese).

Where the codes come from (each group below names its page):
- ARM: "Troubleshoot common Azure deployment errors"
  (https://learn.microsoft.com/en-us/azure/azure-resource-manager/troubleshooting/common-deployment-errors):
  AllocationFailed, AuthorizationFailed, InvalidAuthenticationToken*, SubscriptionNotFound, QuotaExceeded,
  OperationNotAllowed, SkuNotAvailable, ResourceGroupNotFound, ResourceNotFound, NotFound,
  MissingSubscriptionRegistration, InvalidParameter, Conflict, AnotherOperationInProgress,
  ReadOnlyDisabledSubscription, RequestDisallowedByPolicy, InvalidResourceLocation, LocationNotAvailableForResourceType.
- VM allocation: "Troubleshoot allocation failures when you create, restart, or resize VMs in Azure"
  (https://learn.microsoft.com/en-us/troubleshoot/azure/virtual-machines/windows/allocation-failure):
  AllocationFailed, ZonalAllocationFailed, OverconstrainedAllocationRequest, OverconstrainedZonalAllocationRequest.
- SKU: "Resolve errors for SKU not available"
  (https://learn.microsoft.com/en-us/azure/azure-resource-manager/troubleshooting/error-sku-not-available).
- Spot: "Error messages for Azure Spot Virtual Machines and scale sets"
  (https://learn.microsoft.com/en-us/azure/virtual-machines/error-codes-spot): SpotPriceGreaterThanProvidedMaxPrice,
  MaxPriceValueInvalid, AzureSpotFeatureNotEnabledForSubscription, AzureSpotIsNotSupportedForThisVMSize.
- Quota: "Resolve errors for resource quotas"
  (https://learn.microsoft.com/en-us/azure/azure-resource-manager/troubleshooting/error-resource-quota):
  OperationNotAllowed / QuotaExceeded with "cores quota" in the message.
- Throttling: https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/request-limits-and-throttling
  (429 TooManyRequests; azure-core retries it with Retry-After before the error reaches LabGPU).
- Sign-in: Microsoft Entra AADSTS codes
  (https://learn.microsoft.com/en-us/entra/identity-platform/reference-error-codes and the SDK troubleshooting page
  https://learn.microsoft.com/en-us/azure/developer/java/sdk/troubleshooting-authentication-service-principal):
  AADSTS7000215 (invalid client secret), AADSTS7000222 (expired secret), AADSTS700016 (application not found in
  the tenant), AADSTS90002 (tenant not found), AADSTS900023 (tenant id malformed).
A code Azure adds later still gets the generic sentence with its own code and message.
"""

from __future__ import annotations

from typing import Any

from app.cloud.base import (
    AuthError,
    CapacityError,
    CloudError,
    NotFoundError,
    PriceTooLowError,
    QuotaError,
    ThrottledError,
)
from app.cloud.errors import ErrorSpec, InvalidRequestError, PermissionError_
from app.cloud.errors import map_error as _map_error
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import PROVIDER_ID

SECRET = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "Microsoft Entra ID refused the client secret of this service principal."),
    QT_TRANSLATE_NOOP("LabGPU", "Paste the secret's Value (not its Secret ID) again: edit the account; or create a new "
                                "client secret under App registrations > Certificates & secrets."),
)
SECRET_EXPIRED = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "The client secret of this service principal has expired."),
    QT_TRANSLATE_NOOP("LabGPU", "Create a new client secret under App registrations > Certificates & secrets and "
                                "edit the account."),
)
APP_NOT_FOUND = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "Microsoft Entra ID does not know this client id in tenant {tenant}."),
    QT_TRANSLATE_NOOP("LabGPU", "Check the Application (client) ID and the Directory (tenant) ID on the app's Overview "
                                "page, then edit the account."),
)
TENANT = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "Microsoft Entra ID does not know the tenant {tenant}."),
    QT_TRANSLATE_NOOP("LabGPU", "Copy the Directory (tenant) ID from the app's Overview page into the account's "
                                "tenant field."),
)
TOKEN = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure Resource Manager refused the access token ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Check that the tenant of the account is the subscription's tenant, and this "
                                "computer's clock; then run 'labgpu accounts test'."),
)
AUTHORIZATION = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP("LabGPU", "This service principal may not call {action} in subscription {subscription} "
                                "(AuthorizationFailed)."),
    QT_TRANSLATE_NOOP("LabGPU", "Ask the subscription's owner to give the app the Contributor role (or Virtual "
                                "Machine Contributor and Network Contributor) on the subscription."),
)
SUBSCRIPTION = ErrorSpec(
    NotFoundError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure does not know the subscription {subscription}, or this service principal "
                                "cannot see it."),
    QT_TRANSLATE_NOOP("LabGPU", "Copy the Subscription ID from the portal's Subscriptions page into the account, and "
                                "give the app a role on it."),
)
DISABLED = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP("LabGPU", "The Azure subscription {subscription} is disabled or read-only."),
    QT_TRANSLATE_NOOP("LabGPU", "Re-enable it (pay the open bill, or upgrade a free trial) in the portal's "
                                "Subscriptions page, then retry."),
)
REGISTRATION = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP("LabGPU", "The subscription is not registered for the resource provider {action} needs "
                                "(MissingSubscriptionRegistration)."),
    QT_TRANSLATE_NOOP("LabGPU", "Register Microsoft.Compute and Microsoft.Network under Subscriptions > Resource "
                                "providers (az provider register -n Microsoft.Compute), then retry."),
)
POLICY = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP("LabGPU", "An Azure Policy of this subscription forbids the request: {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Ask the subscription's administrator which sizes, regions or tags the policy allows."),
)
CAPACITY = ErrorSpec(
    CapacityError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure has no {instance_type} left in {location} zone {zone} right now "
                                "({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Try another zone, size or region, or retry later."),
    retryable=True,
)
SKU = ErrorSpec(
    CapacityError,
    QT_TRANSLATE_NOOP("LabGPU", "{instance_type} is not available in {location} zone {zone} for this subscription "
                                "(SkuNotAvailable)."),
    QT_TRANSLATE_NOOP("LabGPU", "Try another zone or region; 'az vm list-skus -l {location} --size {instance_type} "
                                "--all' shows where it is offered, and a support request can open it."),
)
QUOTA = ErrorSpec(
    QuotaError,
    QT_TRANSLATE_NOOP("LabGPU", "Your Azure vCPU quota is too small for {instance_type} in {location} "
                                "({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Request more vCPUs of this family (or Spot vCPUs) under Subscriptions > Usage + "
                                "quotas; new subscriptions often have 0 for GPU families."),
)
SPOT_PRICE = ErrorSpec(
    PriceTooLowError,
    QT_TRANSLATE_NOOP("LabGPU", "Your Spot maximum {max_price} USD/h is below the current Spot price of "
                                "{instance_type} ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Raise --max-price, or leave it out (80 % of the on-demand price), or launch on "
                                "demand."),
)
SPOT_UNSUPPORTED = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure Spot is not available for this request ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Launch on demand, or pick a size and subscription that take Spot (not free trial "
                                "or sponsored subscriptions)."),
)
NOT_FOUND = ErrorSpec(
    NotFoundError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure does not have {instance_id} (any more): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Reload the instances page: it may have been deleted in the portal."),
)
BUSY = ErrorSpec(
    CloudError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure is still busy with another operation on {instance_id} ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Wait a minute, reload the instances page, then retry."),
    retryable=True,
)
THROTTLED = ErrorSpec(
    ThrottledError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure Resource Manager is throttling this subscription's requests."),
    QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry; other tools using the same subscription count too."),
    retryable=True,
)
LOCATION = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure does not offer this in {location} ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Edit the account and pick a region name such as eastus or westeurope "
                                "(az account list-locations)."),
)
PARAMETER = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Azure refused the request ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Check the size, image and region; quote request id {rid} if you contact support."),
)

_GROUPS: dict[ErrorSpec, tuple[str, ...]] = {
    # Entra ID (AADSTS codes from the sign-in error text)
    SECRET: ("AADSTS7000215",),
    SECRET_EXPIRED: ("AADSTS7000222",),
    APP_NOT_FOUND: ("AADSTS700016",),
    TENANT: ("AADSTS90002", "AADSTS900023"),
    # ARM (common deployment errors)
    TOKEN: ("InvalidAuthenticationToken", "InvalidAuthenticationTokenTenant", "ExpiredAuthenticationToken",
            "AuthenticationFailed"),
    AUTHORIZATION: ("AuthorizationFailed", "LinkedAuthorizationFailed"),
    SUBSCRIPTION: ("SubscriptionNotFound", "InvalidSubscriptionId"),
    DISABLED: ("ReadOnlyDisabledSubscription", "DisabledSubscription"),
    REGISTRATION: ("MissingSubscriptionRegistration", "NoRegisteredProviderFound"),
    POLICY: ("RequestDisallowedByPolicy",),
    CAPACITY: ("AllocationFailed", "ZonalAllocationFailed", "OverconstrainedAllocationRequest",
               "OverconstrainedZonalAllocationRequest"),
    SKU: ("SkuNotAvailable",),
    QUOTA: ("QuotaExceeded", "OperationNotAllowed"),
    SPOT_PRICE: ("SpotPriceGreaterThanProvidedMaxPrice",),
    SPOT_UNSUPPORTED: ("AzureSpotFeatureNotEnabledForSubscription", "AzureSpotIsNotSupportedForThisVMSize",
                       "MaxPriceValueInvalid"),
    NOT_FOUND: ("ResourceNotFound", "ResourceGroupNotFound", "NotFound"),
    BUSY: ("AnotherOperationInProgress", "Conflict", "OperationNotAllowedWhileDeallocating"),
    THROTTLED: ("TooManyRequests",),
    LOCATION: ("InvalidResourceLocation", "LocationNotAvailableForResourceType"),
    PARAMETER: ("InvalidParameter", "InvalidRequestContent", "InvalidApiVersionParameter", "BadRequest",
                "ImageNotFound", "PlatformImageNotFound", "InvalidTemplateDeployment"),
}

TABLE: dict[str, ErrorSpec] = {code: spec for spec, codes in _GROUPS.items() for code in codes}
DOCUMENTED_ERROR_CODES: tuple[str, ...] = tuple(c for c in TABLE if not c.endswith("."))


def map_error(code: str, message: str, request_id: str = "", *, action: str = "", **context: Any) -> CloudError:
    """Turn an Azure error (ARM code or AADSTS code) into the CloudError the user sees.

    OperationNotAllowed is Azure's quota refusal only when its message speaks of a quota ("Operation could not
    be completed as it results in exceeding approved … Cores quota"); otherwise it is the generic refusal."""
    params: dict[str, Any] = {
        "zone": "?", "location": "?", "instance_type": "?", "instance_id": "?", "max_price": "?",
        "subscription": "?", "tenant": "?", "endpoint": "?",
    }
    params.update({k: v for k, v in context.items() if v not in (None, "")})
    params["action"] = action or "?"
    if code == "OperationNotAllowed" and "quota" not in (message or "").lower():
        return _map_error(PROVIDER_ID, code, message, request_id, {"OperationNotAllowed": PARAMETER}, **params)
    return _map_error(PROVIDER_ID, code or "Unknown", message, request_id, TABLE, **params)
