#ifndef CXAPIAN_H
#define CXAPIAN_H
#endif
