#ifndef MARQUEE_CJPEG_SHIM_H
#define MARQUEE_CJPEG_SHIM_H
/* libjpeg reports a fatal error by calling error_exit, which must not return: the only way out is
 * a longjmp, and a longjmp across Swift frames is undefined. So every libjpeg call Marquee makes
 * happens inside one of these C functions, each with its own setjmp, and error_exit longjmps back
 * into that same C function, which returns an error code to Swift. Swift never sees a longjmp. */
#include <limits.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct marquee_jpeg {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr error;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
    int started;
    /* Set when the decode was stopped by one of Marquee's limits (scans, memory) rather than by a
     * fault in the file: `message` is then the whole message, not one of libjpeg's. */
    int refused;
    struct jpeg_progress_mgr progress;
} marquee_jpeg;

/* The most scans a JPEG may have. libjpeg decodes every scan over the whole picture before the
 * next, so a progressive file can repeat a tiny scan (an EOB run of 65 bytes covers every block)
 * thousands of times: a 365 KB file of 2,000 such scans over 6000x6666 pixels held a decoder for
 * 58 s, about 27 ms a scan. libjpeg's progressive encoder writes 10 scans for colour, 2 + 4 per
 * component otherwise (18 for CMYK), but a valid progression can be made of hundreds (one scan per
 * coefficient and bit: 883 for grey), so the count itself must be capped. 100 is over five times
 * what libjpeg writes and a fifth of TurboJPEG's TJFLAG_LIMITSCANS (500; libjpeg-turbo's own
 * fuzzers use 50 and 100): over 6000x6666 pixels (--image-max-pixels' default is 40,000,000) a
 * valid progression of 883 scans held a worker 16 s and is now refused after 2 s, the 100 scans it
 * decodes first. djpeg -maxscans works the same way: a progress monitor that stops once
 * input_scan_number passes the limit. */
#define MARQUEE_JPEG_MAX_SCANS 100

static void marquee_jpeg_error_exit(j_common_ptr info) {
    marquee_jpeg *decoder = (marquee_jpeg *)info;
    if (info->err->msg_code == JERR_NO_BACKING_STORE) {
        /* libjpeg-turbo's memory manager (jmemnobs) has no temporary files: coefficient buffers
         * larger than max_memory_to_use fail here, before they are allocated. */
        snprintf(decoder->message, JMSG_LENGTH_MAX,
                 "a %ux%u JPEG in several scans needs more memory to decode than 4 bytes x "
                 "--image-max-pixels allows",
                 decoder->info.image_width, decoder->info.image_height);
        decoder->refused = 1;
    } else {
        (*info->err->format_message)(info, decoder->message);
    }
    longjmp(decoder->escape, 1);
}

/* Called by libjpeg at least once per row of blocks of every scan it reads (jpeg_start_decompress
 * reads a multi-scan file whole), so a file is stopped before it decodes scan 101. */
static void marquee_jpeg_progress_monitor(j_common_ptr info) {
    marquee_jpeg *decoder = (marquee_jpeg *)info;
    if (decoder->info.input_scan_number > MARQUEE_JPEG_MAX_SCANS) {
        snprintf(decoder->message, JMSG_LENGTH_MAX, "JPEG has more than %d scans, the most Marquee decodes",
                 MARQUEE_JPEG_MAX_SCANS);
        decoder->refused = 1;
        longjmp(decoder->escape, 1);
    }
}

/* A warning is not fatal to libjpeg (it fills a truncated file with grey), but a picture that ends
 * early or is corrupt is an error to Marquee: it would show a grey band for good. So is a scan
 * that does not follow the progression (JWRN_BOGUS_PROGRESSION: a scan repeated, or refining bits
 * that were never sent): a well-formed file has none, and a repeated scan is the cheap way to make
 * a file that keeps a decoder busy (libjpeg-turbo's answer to such files is djpeg -strict and
 * TJPARAM_STOPONWARNING, every warning fatal; Marquee keeps tolerating the harmless ones, such as
 * extraneous bytes before a marker, which some cameras write). */
static void marquee_jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0) {
        int code = info->err->msg_code;
        if (code == JWRN_JPEG_EOF || code == JWRN_HIT_MARKER || code == JWRN_MUST_RESYNC ||
            code == JWRN_NOT_SEQUENTIAL || code == JWRN_HUFF_BAD_CODE || code == JWRN_BOGUS_PROGRESSION) {
            marquee_jpeg_error_exit(info);
        }
        info->err->num_warnings++;
    }
}

/* A decoder over `size` bytes at `data` (which must outlive it), its header read. Returns NULL
 * only when memory is short; otherwise check `message[0]` (non-zero: the header is bad). */
static inline marquee_jpeg *marquee_jpeg_open(const unsigned char *data, unsigned long size) {
    marquee_jpeg *decoder = (marquee_jpeg *)calloc(1, sizeof(marquee_jpeg));
    if (!decoder) return NULL;
    decoder->info.err = jpeg_std_error(&decoder->error);
    decoder->error.error_exit = marquee_jpeg_error_exit;
    decoder->error.emit_message = marquee_jpeg_emit_message;
    if (setjmp(decoder->escape)) {
        if (!decoder->message[0]) strcpy(decoder->message, "corrupt JPEG header");
        return decoder;
    }
    jpeg_create_decompress(&decoder->info);
    decoder->progress.progress_monitor = marquee_jpeg_progress_monitor;
    decoder->info.progress = &decoder->progress;
    jpeg_mem_src(&decoder->info, data, size);
    jpeg_read_header(&decoder->info, TRUE);
    return decoder;
}

static inline unsigned marquee_jpeg_width(const marquee_jpeg *decoder) { return decoder->info.image_width; }
static inline unsigned marquee_jpeg_height(const marquee_jpeg *decoder) { return decoder->info.image_height; }

/* The bytes of the DCT coefficient buffers libjpeg allocates for the whole picture before it
 * writes a row (jdcoefct.c: one 128-byte block per 8x8 pixels of every component, rows and
 * columns rounded up to the sampling factors), whatever the DCT scaling: 0 for a baseline JPEG in
 * one scan, which is decoded a row of blocks at a time. A progressive file needs them: 2 bytes a
 * pixel for grey, 3 for 4:2:0 colour, 6 for 4:4:4 colour, 8 for CMYK. Valid after the header. */
static inline unsigned long long marquee_jpeg_coefficient_bytes(marquee_jpeg *decoder) {
    if (!decoder->info.progressive_mode && decoder->info.comps_in_scan >= decoder->info.num_components) return 0;
    unsigned long long bytes = 0;
    for (int ci = 0; ci < decoder->info.num_components; ci++) {
        const jpeg_component_info *component = &decoder->info.comp_info[ci];
        unsigned long long h = (unsigned long long)component->h_samp_factor;
        unsigned long long v = (unsigned long long)component->v_samp_factor;
        unsigned long long columns = (component->width_in_blocks + h - 1) / h * h;
        unsigned long long rows = (component->height_in_blocks + v - 1) / v * v;
        bytes += columns * rows * sizeof(JBLOCK);
    }
    return bytes;
}

/* The most memory libjpeg may take for its buffers of the whole picture (the coefficients of a
 * multi-scan file); over it, jpeg_start_decompress fails before allocating them. Set after
 * marquee_jpeg_prepare. libjpeg reads 0 as no limit, so at least 1. */
static inline void marquee_jpeg_limit_memory(marquee_jpeg *decoder, unsigned long long bytes) {
    if (bytes < 1) bytes = 1;
    if (bytes > (unsigned long long)LONG_MAX) bytes = (unsigned long long)LONG_MAX;
    decoder->info.mem->max_memory_to_use = (long)bytes;
}

/* Sets the DCT scaling (1/1, 1/2, 1/4 or 1/8) and the output format, premultiplied a8r8g8b8 in
 * memory order (B, G, R, A; a JPEG is opaque), and computes the output size. 0 on success. */
static inline int marquee_jpeg_prepare(marquee_jpeg *decoder, unsigned denominator, unsigned *width, unsigned *height) {
    if (setjmp(decoder->escape)) return -1;
    decoder->info.scale_num = 1;
    decoder->info.scale_denom = denominator;
    /* libjpeg cannot turn CMYK (print workflows, some stock photos) into RGB; it is decoded as
     * CMYK and converted row by row in marquee_jpeg_decode. */
    int cmyk = decoder->info.jpeg_color_space == JCS_CMYK || decoder->info.jpeg_color_space == JCS_YCCK;
    decoder->info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_BGRA;
    decoder->info.dct_method = JDCT_ISLOW;
    jpeg_calc_output_dimensions(&decoder->info);
    *width = decoder->info.output_width;
    *height = decoder->info.output_height;
    return 0;
}

/* Decodes every row into `pixels` (rows `stride` bytes apart, output_width x output_height x 4
 * bytes). 0 on success, -1 with `message` set on any error. */
static inline int marquee_jpeg_decode(marquee_jpeg *decoder, unsigned char *pixels, size_t stride) {
    if (setjmp(decoder->escape)) return -1;
    jpeg_start_decompress(&decoder->info);
    decoder->started = 1;
    while (decoder->info.output_scanline < decoder->info.output_height) {
        JSAMPROW row = pixels + (size_t)decoder->info.output_scanline * stride;
        jpeg_read_scanlines(&decoder->info, &row, 1);
        if (decoder->info.out_color_space == JCS_CMYK) {
            /* Adobe's files store CMYK inverted (0 = full ink); others plainly. */
            int inverted = decoder->info.saw_Adobe_marker;
            for (JDIMENSION x = 0; x < decoder->info.output_width; x++) {
                unsigned char *p = row + (size_t)x * 4;
                unsigned c = p[0], m = p[1], y = p[2], k = p[3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                p[0] = (unsigned char)((y * k + 127) / 255); /* B */
                p[1] = (unsigned char)((m * k + 127) / 255); /* G */
                p[2] = (unsigned char)((c * k + 127) / 255); /* R */
                p[3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&decoder->info);
    return 0;
}

static inline const char *marquee_jpeg_message(const marquee_jpeg *decoder) { return decoder->message; }

static inline void marquee_jpeg_close(marquee_jpeg *decoder) {
    if (!decoder) return;
    /* jpeg_destroy_decompress cannot fail, but guard it anyway so no error path returns into a
     * function that has already returned. */
    if (!setjmp(decoder->escape)) jpeg_destroy_decompress(&decoder->info);
    free(decoder);
}

/* Encodes `width` x `height` pixels in memory order B, G, R, X (rows `stride` bytes apart) as a
 * baseline JPEG of `quality` (1-100). On success returns 0 and a malloc'd buffer in *out (free it
 * with free()) of *size bytes. Used to make pictures for the bench, not by the renderer. */
typedef struct marquee_jpeg_encoder {
    struct jpeg_compress_struct info;
    struct jpeg_error_mgr error;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
} marquee_jpeg_encoder;

static inline void marquee_jpeg_encoder_exit(j_common_ptr info) {
    marquee_jpeg_encoder *encoder = (marquee_jpeg_encoder *)info;
    (*info->err->format_message)(info, encoder->message);
    longjmp(encoder->escape, 1);
}

static inline int marquee_jpeg_encode(const unsigned char *pixels, unsigned width, unsigned height, size_t stride,
                                      int quality, unsigned char **out, unsigned long *size) {
    marquee_jpeg_encoder *encoder = (marquee_jpeg_encoder *)calloc(1, sizeof(marquee_jpeg_encoder));
    if (!encoder) return -1;
    *out = NULL;
    *size = 0;
    encoder->info.err = jpeg_std_error(&encoder->error);
    encoder->error.error_exit = marquee_jpeg_encoder_exit;
    if (setjmp(encoder->escape)) {
        jpeg_destroy_compress(&encoder->info);
        free(*out);
        *out = NULL;
        free(encoder);
        return -1;
    }
    jpeg_create_compress(&encoder->info);
    jpeg_mem_dest(&encoder->info, out, size);
    encoder->info.image_width = width;
    encoder->info.image_height = height;
    encoder->info.input_components = 4;
    encoder->info.in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(&encoder->info);
    jpeg_set_quality(&encoder->info, quality, TRUE);
    jpeg_start_compress(&encoder->info, TRUE);
    while (encoder->info.next_scanline < height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)encoder->info.next_scanline * stride);
        jpeg_write_scanlines(&encoder->info, &row, 1);
    }
    jpeg_finish_compress(&encoder->info);
    jpeg_destroy_compress(&encoder->info);
    free(encoder);
    return 0;
}
#endif
