"""The formats the run time checks on a call's arguments where a provider's strict mode dropped them (the validator's own checks)."""

from __future__ import annotations

# The formats the validator (jsonschema-rs) checks, as JSON Schema 2020-12 defines them. A dropped
# format outside this list (an OpenAPI `int32`, a `phone` of the author's own) cannot be checked: its
# loss stays lossy.
CHECKED_FORMATS = frozenset({
    "date", "date-time", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6",
    "uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid", "json-pointer", "relative-json-pointer",
    "regex",
})
# Words for a format a value does not have, as a model reads them.
FORMAT_WORDS = {
    "uri": "an absolute URI with a scheme (e.g. https://example.com/path)",
    "uri-reference": "a URI reference", "iri": "an absolute IRI with a scheme", "iri-reference": "an IRI reference",
    "date-time": "an RFC 3339 date-time (e.g. 2025-01-31T12:00:00Z)", "date": "a date (YYYY-MM-DD)",
    "time": "an RFC 3339 time with a time zone (e.g. 12:00:00Z)", "duration": "an ISO 8601 duration (e.g. P3DT4H)",
    "email": "an email address", "idn-email": "an email address", "hostname": "a host name",
    "idn-hostname": "a host name", "ipv4": "an IPv4 address", "ipv6": "an IPv6 address", "uuid": "a UUID",
    "uri-template": "a URI template (RFC 6570)", "json-pointer": "a JSON pointer (e.g. /a/0)",
    "relative-json-pointer": "a relative JSON pointer", "regex": "a regular expression",
}
