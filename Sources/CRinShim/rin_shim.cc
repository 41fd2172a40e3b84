// The only C++ in the package: a plain C face on libphonenumber and libpsl, so that Swift links
// them without C++ interop. Both libraries are thread-safe for these calls.
#include "rin_shim.h"

#include <libpsl.h>
#include <phonenumbers/phonemetadata.pb.h>
#include <phonenumbers/phonenumberutil.h>

#include <cstdint>
#include <cstring>
#include <ctime>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <map>
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

// libphonenumber's metadata, parsed once; nullptr when it does not read.
const i18n::phonenumbers::PhoneMetadataCollection *metadata_collection() {
  static const i18n::phonenumbers::PhoneMetadataCollection *collection = [] {
    auto *parsed = new i18n::phonenumbers::PhoneMetadataCollection();
    if (!parsed->ParseFromArray(i18n::phonenumbers::metadata_get(), i18n::phonenumbers::metadata_size())) {
      delete parsed;
      return static_cast<i18n::phonenumbers::PhoneMetadataCollection *>(nullptr);
    }
    return parsed;
  }();
  return collection;
}

// The regions whose metadata rewrites national numbers while parsing; nullptr when the metadata
// does not read, so that callers assume every region does.
const std::set<std::string> *rewriting_regions() {
  static const std::set<std::string> *regions = [] {
    const auto *collection = metadata_collection();
    if (collection == nullptr) return static_cast<std::set<std::string> *>(nullptr);
    auto *ids = new std::set<std::string>();
    for (const auto &metadata : collection->metadata()) {
      if (metadata.has_national_prefix_transform_rule()) ids->insert(metadata.id());
    }
    return ids;
  }();
  return regions;
}

// What GetLengthOfGeographicalAreaCode asks of the region's metadata, per country calling code,
// when every region of the code answers alike: so the number's region need not be found again.
enum class NationalPrefix { all, none, mixed, non_geographic };

const std::map<int, NationalPrefix> *national_prefixes() {
  static const std::map<int, NationalPrefix> *prefixes = [] {
    auto *byCode = new std::map<int, NationalPrefix>();
    const auto *collection = metadata_collection();
    if (collection == nullptr) return byCode;  // empty: every code is looked up the library's way
    for (const auto &metadata : collection->metadata()) {
      const int code = metadata.country_code();
      NationalPrefix here = metadata.id() == "001" ? NationalPrefix::non_geographic
                            : metadata.has_national_prefix() ? NationalPrefix::all
                                                             : NationalPrefix::none;
      auto found = byCode->find(code);
      if (found == byCode->end()) {
        (*byCode)[code] = here;
      } else if (found->second != here) {
        found->second = NationalPrefix::mixed;
      }
    }
    return byCode;
  }();
  return prefixes;
}

// GetLengthOfGeographicalAreaCode for a number whose type is known, without finding its region
// and type again (the library's own call finds both twice more: most of its cost after
// parsing). The library's steps, in its order: no metadata for the region (non-geographic
// entities) → 0; a mobile of a country whose mobiles carry no area code → 0; a region without
// a national prefix and no Italian leading zero → 0; not geographic → 0; else the national
// destination code's length. Geographic mobiles (a handful of countries) take the library's own
// path, so no country list is copied here.
int geographical_area_code_length(const PhoneNumberUtil &util, const PhoneNumber &number,
                                  PhoneNumberUtil::PhoneNumberType type) {
  const int code = number.country_code();
  if (!util.IsNumberGeographical(type, code)) return 0;
  if (type == PhoneNumberUtil::MOBILE) return util.GetLengthOfGeographicalAreaCode(number);
  const auto *prefixes = national_prefixes();
  const auto found = prefixes->find(code);
  if (found == prefixes->end() || found->second == NationalPrefix::mixed) {
    return util.GetLengthOfGeographicalAreaCode(number);
  }
  if (found->second == NationalPrefix::non_geographic) return 0;
  if (found->second == NationalPrefix::none && !number.italian_leading_zero()) return 0;
  return util.GetLengthOfNationalDestinationCode(number);
}

// Fills `out` from a valid number and the length of its geographic area code.
int fill(const PhoneNumberUtil &util, const PhoneNumber &number, int area_length, rin_phone *out) {
  std::string e164;
  util.Format(number, PhoneNumberUtil::E164, &e164);
  std::string national;
  util.GetNationalSignificantNumber(number, &national);
  const std::string area =
      area_length > 0 && static_cast<size_t>(area_length) <= national.size() ? national.substr(0, area_length) : "";
  out->country_code = number.country_code();
  return copy(e164, out->e164, sizeof out->e164) && copy(area, out->area_code, sizeof out->area_code) ? 1 : 0;
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

// One parse, one region and type: `GetNumberType` is UNKNOWN exactly when `IsValidNumber` is
// false (both find the number's region, then match its national number against that region's
// descriptions; the region comes from the country code, so the library's country check holds).
extern "C" int rin_phone_parse(const char *raw, const char *default_region, rin_phone *out) {
  if (raw == nullptr || default_region == nullptr || out == nullptr) return 0;
  const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
  PhoneNumber number;
  if (util.Parse(raw, default_region, &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
  const PhoneNumberUtil::PhoneNumberType type = util.GetNumberType(number);
  if (type == PhoneNumberUtil::UNKNOWN) return 0;
  return fill(util, number, geographical_area_code_length(util, number, type), out);
}

extern "C" int rin_phone_parse_by_library(const char *raw, const char *default_region, rin_phone *out) {
  if (raw == nullptr || default_region == nullptr || out == nullptr) return 0;
  const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
  PhoneNumber number;
  if (util.Parse(raw, default_region, &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
  if (!util.IsValidNumber(number)) return 0;
  return fill(util, number, util.GetLengthOfGeographicalAreaCode(number), out);
}

extern "C" int rin_phone_e164_of_any_number(const char *raw, const char *default_region, char *out,
                                           size_t out_len) {
  if (raw == nullptr || default_region == nullptr || out == nullptr) return 0;
  const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
  PhoneNumber number;
  if (util.Parse(raw, default_region, &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 0;
  std::string e164;
  util.Format(number, PhoneNumberUtil::E164, &e164);
  return copy(e164, out, out_len) ? 1 : 0;
}

extern "C" uint64_t rin_phone_metadata_digest(void) {
  // FNV-1a over the compiled-in metadata: a new libphonenumber release changes it.
  const auto *bytes = static_cast<const unsigned char *>(i18n::phonenumbers::metadata_get());
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (int i = 0; i < i18n::phonenumbers::metadata_size(); ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
  return hash;
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

extern "C" uint64_t rin_psl_digest(void) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  auto mix = [&hash](const void *data, size_t size) {
    const auto *bytes = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < size; ++i) hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
  };
  const char *sha1 = psl_builtin_sha1sum();
  if (sha1 != nullptr) mix(sha1, std::strlen(sha1));
  const time_t built = psl_builtin_file_time();
  mix(&built, sizeof built);
  const char *path = psl_dist_filename();
  struct stat info;
  if (path != nullptr && *path != '\0' && stat(path, &info) == 0) {
    mix(path, std::strlen(path));
    const long long size = static_cast<long long>(info.st_size);
    const long long modified = static_cast<long long>(info.st_mtime);
    mix(&size, sizeof size);
    mix(&modified, sizeof modified);
  }
  return hash;
}

extern "C" int rin_set_undumpable(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

extern "C" int rin_is_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }
