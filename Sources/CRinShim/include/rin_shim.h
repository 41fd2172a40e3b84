#ifndef RIN_SHIM_H
#define RIN_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A phone number as libphonenumber reads it.
typedef struct {
  /// "+14155550123"; E.164 has at most 15 digits.
  char e164[24];
  int country_code;
  /// National digits of the geographic area code ("415"), empty when the number has none.
  char area_code[24];
} rin_phone;

/// 1 when `raw` parses (with `default_region`, ISO 3166 alpha-2 or "ZZ" for none) into a valid
/// number, with `out` filled; 0 otherwise.
/// Parses once and finds the number's region and type once (the library's own calls find them
/// three times); the same answers as `rin_phone_parse_by_library`.
int rin_phone_parse(const char *raw, const char *default_region, rin_phone *out);

/// `rin_phone_parse` through the library's own calls (`IsValidNumber`,
/// `GetLengthOfGeographicalAreaCode`): the reference the tests hold `rin_phone_parse` to.
int rin_phone_parse_by_library(const char *raw, const char *default_region, rin_phone *out);

/// 1 when `raw` parses (with `default_region`) into a number, valid or not, with its E.164 form
/// in `out` (at most `out_len` bytes with the terminating zero); 0 otherwise. Wherever
/// `rin_phone_parse` answers, the same E.164 form: it is that parse without the type lookup that
/// decides validity (most of its time), for finding what was keyed by valid numbers' forms.
int rin_phone_e164_of_any_number(const char *raw, const char *default_region, char *out, size_t out_len);

/// A digest of libphonenumber's compiled-in metadata: what a parse's answer depends on besides
/// the text and the region, so a stored answer is reused only under the same metadata.
uint64_t rin_phone_metadata_digest(void);

/// 1 when libphonenumber has metadata for `region` (ISO 3166 alpha-2, upper case).
int rin_phone_region_known(const char *region);

/// 1 when parsing a number with `default_region` into `country_code` can only drop digits from
/// the front of what was typed: neither that region's metadata nor the main region of the
/// country code rewrites national numbers (`national_prefix_transform_rule`). 0 otherwise, and
/// when the metadata cannot be read.
int rin_phone_parsing_keeps_digits(const char *default_region, int country_code);

/// Writes the registrable domain of `host` (lower-case UTF-8) into `out` and returns 1; returns
/// 0 when the host has none (a public suffix itself, a single label) or `out` is too small.
int rin_registrable_domain(const char *host, char *out, size_t out_len);

/// A digest of the Public Suffix List in use: the list compiled into libpsl (its SHA-1 and
/// file time) and the system's copy (its path, size and modification time). Registrable domains
/// depend on it, so a job that reuses what it derived from addresses does so only under the same
/// digest; a newer list (a `publicsuffix` package update) changes it.
uint64_t rin_psl_digest(void);

/// Marks this process not dumpable (prctl PR_SET_DUMPABLE 0): a crash writes no core file,
/// and other processes of the same user cannot ptrace it or read its memory, so the provider's
/// API key in its environment and memory stays in it. 0 on success, -1 with errno set.
int rin_set_undumpable(void);

/// 1 when this process is dumpable (prctl PR_GET_DUMPABLE), 0 when not, -1 on error.
int rin_is_dumpable(void);

#ifdef __cplusplus
}
#endif

#endif
