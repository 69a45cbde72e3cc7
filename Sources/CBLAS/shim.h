// OpenBLAS's CBLAS interface (Debian: libopenblas-dev; the cblas.h alternative points at OpenBLAS's own).
#include <cblas.h>
