/* The JSON writer (src/common/json.h): commas, layout, the escaper, both sinks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/json.h"
#include "harness.h"

/* Everything a writer wrote into its buffer; the caller frees it. */
static char *taken(struct hv_json *w)
{
    size_t n = 0;
    char *s = hv_json_take(w, &n);
    return s && strlen(s) == n ? s : NULL;
}

#define CHECK_JSON(w, want)                                                      \
    do {                                                                         \
        char *got_ = taken(w);                                                   \
        int ok_ = got_ && strcmp(got_, want) == 0;                               \
        if (!ok_)                                                                \
            hv_t_fail(__FILE__, __LINE__, "json", "got %s, want %s", got_ ? got_ : "(null)", want); \
        free(got_);                                                              \
        if (!ok_)                                                                \
            return;                                                              \
    } while (0)

static void test_json_structure(void)
{
    struct hv_json w;
    hv_json_init_buf(&w, 0);
    hv_json_obj(&w);
    hv_json_ku64(&w, "a", 1);
    hv_json_karr(&w, "b");
    hv_json_i64(&w, -2);
    hv_json_obj(&w);
    hv_json_obj_end(&w);
    hv_json_arr(&w);
    hv_json_arr_end(&w);
    hv_json_null(&w);
    hv_json_arr_end(&w);
    hv_json_kobj(&w, "c");
    hv_json_kbool(&w, "t", 1);
    hv_json_kbool(&w, "f", 0);
    hv_json_obj_end(&w);
    hv_json_khex(&w, "h", 0xdeadbeefull);
    hv_json_kfixed(&w, "x", 1.5, 3);
    hv_json_kfixed(&w, "nan", NAN, 2);
    hv_json_kstr(&w, "none", NULL);
    hv_json_key(&w, "raw");
    hv_json_raw(&w, "-1.250");
    hv_json_obj_end(&w);
    CHECK_JSON(&w, "{\"a\":1,\"b\":[-2,{},[],null],\"c\":{\"t\":true,\"f\":false},\"h\":\"0xdeadbeef\","
                   "\"x\":1.500,\"nan\":null,\"none\":null,\"raw\":-1.250}");
    /* Top-level values are not separated; nothing written is "". */
    hv_json_u64(&w, 1);
    hv_json_eol(&w);
    hv_json_u64(&w, 2);
    CHECK_JSON(&w, "1\n2");
    CHECK_JSON(&w, "");
}

static void test_json_lines(void)
{
    struct hv_json w;
    hv_json_init_buf(&w, 0);
    /* A line before every element and the close (the Perfetto layout) ... */
    hv_json_arr(&w);
    for (int i = 0; i < 2; i++) {
        hv_json_nl(&w);
        hv_json_u64(&w, (uint64_t)i);
    }
    hv_json_nl(&w);
    hv_json_arr_end(&w);
    CHECK_JSON(&w, "[\n0,\n1\n]");
    /* ... or between elements only (the analyzer's findings). */
    hv_json_arr(&w);
    for (int i = 0; i < 3; i++) {
        if (i)
            hv_json_nl(&w);
        hv_json_obj(&w);
        hv_json_ku64(&w, "i", (uint64_t)i);
        hv_json_obj_end(&w);
    }
    hv_json_arr_end(&w);
    CHECK_JSON(&w, "[{\"i\":0},\n{\"i\":1},\n{\"i\":2}]");
}

static void test_json_escape(void)
{
    struct hv_json w;
    hv_json_init_buf(&w, 0);
    const char s[] = "q\"b\\n\n t\t r\r c\x01 d\x7f e\xc3\xa9 bad\xff\xc3 <x>";
    hv_json_strn(&w, s, sizeof s - 1);
    CHECK_JSON(&w, "\"q\\\"b\\\\n\\n t\\t r\\r c\\u0001 d\\u007f e\xc3\xa9 bad\\ufffd\\ufffd <x>\"");
    /* Overlong, surrogate and past-U+10FFFF forms are not UTF-8. */
    hv_json_str(&w, "\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xf0\x9f\x98\x80");
    CHECK_JSON(&w, "\"\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd\\ufffd|\xf0\x9f\x98\x80\"");
    /* Keys go through the same escaper; a NUL inside counted bytes too. */
    hv_json_obj(&w);
    hv_json_key(&w, "k\"");
    hv_json_strn(&w, "a\0b", 3);
    hv_json_obj_end(&w);
    CHECK_JSON(&w, "{\"k\\\"\":\"a\\u0000b\"}");
    /* Inside an HTML <script>: every '<' escaped. */
    hv_json_init_buf(&w, HV_JSON_SCRIPT);
    hv_json_str(&w, "</script><!--");
    CHECK_JSON(&w, "\"\\u003c/script>\\u003c!--\"");
}

static void test_json_hexbytes(void)
{
    unsigned char b[700];
    for (size_t i = 0; i < sizeof b; i++)
        b[i] = (unsigned char)(i * 37);
    struct hv_json w;
    hv_json_init_buf(&w, 0);
    hv_json_hexbytes(&w, b, sizeof b);
    char *got = taken(&w);
    CHECK(got && strlen(got) == 2 * sizeof b + 2 && got[0] == '"' && got[2 * sizeof b + 1] == '"');
    int ok = 1;
    for (size_t i = 0; i < sizeof b && ok; i++) {
        char two[3];
        snprintf(two, sizeof two, "%02x", b[i]);
        ok = memcmp(got + 1 + 2 * i, two, 2) == 0;
    }
    free(got);
    CHECK(ok);
}

/* A FILE and the buffer get the same bytes. */
static void test_json_file(void)
{
    char *mem = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&mem, &len);
    CHECK(f);
    struct hv_json fw, bw;
    hv_json_init(&fw, f, HV_JSON_SCRIPT);
    hv_json_init_buf(&bw, HV_JSON_SCRIPT);
    for (int k = 0; k < 2; k++) {
        struct hv_json *w = k ? &bw : &fw;
        hv_json_obj(w);
        hv_json_kstr(w, "p", "/tmp/\xe2\x82\xac <\"x\">");
        hv_json_karr(w, "v");
        hv_json_u64(w, UINT64_MAX);
        hv_json_i64(w, INT64_MIN);
        hv_json_arr_end(w);
        hv_json_obj_end(w);
        hv_json_eol(w);
    }
    CHECK(hv_json_error(&fw) == 0 && hv_json_error(&bw) == 0);
    fclose(f);
    char *b = taken(&bw);
    int same = b && mem && strcmp(b, mem) == 0 &&
               strcmp(b, "{\"p\":\"/tmp/\xe2\x82\xac \\u003c\\\"x\\\">\",\"v\":[18446744073709551615,"
                         "-9223372036854775808]}\n") == 0;
    free(b);
    free(mem);
    CHECK(same);
}

void hv_tests_json(void)
{
    RUN(test_json_structure);
    RUN(test_json_lines);
    RUN(test_json_escape);
    RUN(test_json_hexbytes);
    RUN(test_json_file);
}
