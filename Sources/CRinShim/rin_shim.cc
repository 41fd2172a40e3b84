// The only C++ in the package: a plain C face on libphonenumber and libpsl, so that Swift links
// them without C++ interop. Both libraries are thread-safe for these calls.
#include "rin_shim.h"

#include <libpsl.h>
#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <cstring>
#include <set>
#include <string>

// libphonenumber's compiled-in metadata (a serialized PhoneMetadataCollection); exported by the
// library, not declared in its installed headers.
namespace i18n {
namespace phonenumbers {
int metadata_size();
const void *metadata_get();
}  // namespace phonenumbers
}  // namespace i18n

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

bool copy(const std::string &text, char *out, size_t out_len) {
  if (text.size() + 1 > out_len) return false;
  std::memcpy(out, text.c_str(), text.size() + 1);
  return true;
}

// Loaded once (thread-safe static initialization): the system's list if it is newer than the
// one compiled into libpsl.
const psl_ctx_t *suffixes() {
  static const psl_ctx_t *context = [] {
    const psl_ctx_t *latest = psl_latest(nullptr);
    return latest != nullptr ? latest : psl_builtin();
  }();
  return context;
}

// The regions whose metadata rewrites national numbers while parsing; nullptr when the metadata
// does not read, so that callers assume every region does.
const std::set<std::string> *rewriting_regions() {
  static const std::set<std::string> *regions = [] {
    i18n::phonenumbers::PhoneMetadataCollection collection;
    if (!collection.ParseFromArray(i18n::phonenumbers::metadata_get(), i18n::phonenumbers::metadata_size())) {
      return static_cast<std::set<std::string> *>(nullptr);
    }
    auto *ids = new std::set<std::string>();
    for (const auto &metadata : collection.metadata()) {
      if (metadata.has_national_prefix_transform_rule()) ids->insert(metadata.id());
    }
    return ids;
  }();
  return regions;
}

}  // namespace

extern "C" int rin_phone_parsing_keeps_digits(const char *default_region, int country_code) {
  const std::set<std::string> *rewriting = rewriting_regions();
  if (rewriting == nullptr || default_region == nullptr) return 0;
  std::string main_region;
  PhoneNumberUtil::GetInstance()->GetRegionCodeForCountryCode(country_code, &main_region);
  if (main_region == "ZZ") return 0;
  return rewriting->count(default_region) == 0 && rewriting->count(main_region) == 0 ? 1 : 0;
}

extern "C" int rin_phone_parse(const char *raw, const char *default_region, rin_phone *out) {
  if (raw == nullptr || default_region == nullptr || out == nullptr) return 0;
  const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
  PhoneNumber number;
  if (util->Parse(raw, default_region, &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
  if (!util->IsValidNumber(number)) return 0;
  std::string e164;
  util->Format(number, PhoneNumberUtil::E164, &e164);
  std::string national;
  util->GetNationalSignificantNumber(number, &national);
  const int area_length = util->GetLengthOfGeographicalAreaCode(number);
  const std::string area =
      area_length > 0 && static_cast<size_t>(area_length) <= national.size() ? national.substr(0, area_length) : "";
  out->country_code = number.country_code();
  return copy(e164, out->e164, sizeof out->e164) && copy(area, out->area_code, sizeof out->area_code) ? 1 : 0;
}

extern "C" int rin_phone_region_known(const char *region) {
  if (region == nullptr) return 0;
  return PhoneNumberUtil::GetInstance()->GetCountryCodeForRegion(region) != 0 ? 1 : 0;
}

extern "C" int rin_registrable_domain(const char *host, char *out, size_t out_len) {
  if (host == nullptr || out == nullptr) return 0;
  const char *domain = psl_registrable_domain(suffixes(), host);
  if (domain == nullptr) return 0;
  return copy(domain, out, out_len) ? 1 : 0;
}
