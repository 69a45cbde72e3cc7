// The header's inline function is all there is; SwiftPM wants one source file per C target.
#include "CSQLiteSupport.h"
