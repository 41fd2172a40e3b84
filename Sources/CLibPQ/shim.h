// libpq, PostgreSQL's C client (Debian package libpq-dev). Only RinStorage imports it.
#include <postgresql/libpq-fe.h>
