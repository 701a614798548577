#include <stdio.h>
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>
typedef uint64_t u64; typedef int64_t s64; typedef uint32_t u32; typedef uint8_t u8;
#define U32_MAX 0xffffffffu
#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define min(a,b) ((a)<(b)?(a):(b))
#define max(a,b) ((a)>(b)?(a):(b))
#define min_t(t,a,b) ((t)(a)<(t)(b)?(t)(a):(t)(b))
#define max_t(t,a,b) ((t)(a)>(t)(b)?(t)(a):(t)(b))
#define clamp_t(t,v,lo,hi) min_t(t,max_t(t,v,lo),hi)
static u64 div_u64(u64 a, u32 b){return a/b;}
static u64 div64_u64(u64 a, u64 b){return a/b;}
#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(x)
#define IRQ_POLL_FLUSH_NS_MIN 10000
