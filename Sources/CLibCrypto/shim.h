// OpenSSL's libcrypto (Debian package libssl-dev): SHA-256 through its EVP interface. Only
// RinDomain's `SHA256Hex` imports it.
#include <openssl/evp.h>
