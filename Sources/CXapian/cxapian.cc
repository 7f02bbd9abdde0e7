#include "cxapian.h"
