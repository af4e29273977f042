#ifndef MARQUEE_CMOSQUITTO_SHIM_H
#define MARQUEE_CMOSQUITTO_SHIM_H
#include <errno.h>
#include <mosquitto.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The MQTT side of `marquee run --mqtt` (docs/architecture.md, "MQTT: libmosquitto on a thread of
 * its own"). libmosquitto's network loop runs on a thread started here; everything it calls back
 * runs on that thread and touches only this struct, so no Swift code runs off the run loop's
 * thread. Messages reach the loop as bytes written to a pipe it polls; the loop publishes replies
 * with mosquitto_publish, which with a threaded client only queues the packet for this thread. */
typedef struct {
    struct mosquitto *mosq;
    char *host;
    int port;
    int keepalive;
    /* Write end of the pipe whose read end the run loop reads commands from. */
    int message_fd;
    char *status_topic;
    char **topics;
    int topic_count;
    /* QoS 1 publications handed to libmosquitto and not acknowledged by the broker yet. */
    atomic_int outstanding;
    atomic_int connected;
    /* Retained messages skipped (a retained command would run again on every subscribe). */
    atomic_int retained_skipped;
    /* Set by a successful connection: the next outage starts the backoff from 1 s again. */
    atomic_int was_connected;
} marquee_mqtt;

static inline char *marquee_mqtt_strdup(const char *text) { return text ? strdup(text) : NULL; }

/* Log lines in the format of the Swift side's Log (one write each, so lines do not interleave). */
static void marquee_mqtt_log(const char *format, ...) {
    char line[512];
    va_list arguments;
    va_start(arguments, format);
    int length = vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    if (length < 0) return;
    if (length >= (int)sizeof line) length = (int)sizeof line - 1;
    ssize_t ignored = write(2, line, (size_t)length);
    (void)ignored;
}

/* Writes all of `bytes` to the pipe. It blocks while the pipe is full: the run loop then has
 * thousands of commands waiting, and holding this thread makes the broker keep the rest. */
static int marquee_mqtt_write_all(int fd, const void *bytes, size_t count) {
    const char *next = (const char *)bytes;
    while (count > 0) {
        ssize_t written = write(fd, next, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        next += written;
        count -= (size_t)written;
    }
    return 0;
}

static void marquee_mqtt_on_connect(struct mosquitto *mosq, void *user, int rc) {
    marquee_mqtt *m = (marquee_mqtt *)user;
    if (rc != 0) {
        marquee_mqtt_log("marquee: error: mqtt: %s refused the connection: %s\n", m->host, mosquitto_connack_string(rc));
        return;
    }
    atomic_store(&m->connected, 1);
    atomic_store(&m->was_connected, 1);
    /* Subscribed again on every connection: a broker that lost the session (no persistence, or an
     * expired one) would otherwise deliver nothing. */
    int subscribed = mosquitto_subscribe_multiple(mosq, NULL, m->topic_count, m->topics, 1, 0, NULL);
    /* The topics are checked at start; should the call still fail, no command would arrive, so say so. */
    if (subscribed != MOSQ_ERR_SUCCESS)
        marquee_mqtt_log("marquee: error: mqtt: cannot subscribe to the command topics: %s\n",
                         mosquitto_strerror(subscribed));
    if (mosquitto_publish(mosq, NULL, m->status_topic, 6, "online", 1, true) == MOSQ_ERR_SUCCESS)
        atomic_fetch_add(&m->outstanding, 1);
    marquee_mqtt_log("marquee: mqtt: connected to %s:%d\n", m->host, m->port);
}

static void marquee_mqtt_on_disconnect(struct mosquitto *mosq, void *user, int rc) {
    (void)mosq;
    (void)rc;
    atomic_store(&((marquee_mqtt *)user)->connected, 0);
}

static void marquee_mqtt_on_publish(struct mosquitto *mosq, void *user, int mid) {
    (void)mosq;
    (void)mid;
    marquee_mqtt *m = (marquee_mqtt *)user;
    if (atomic_fetch_sub(&m->outstanding, 1) <= 0) atomic_store(&m->outstanding, 0);
}

static void marquee_mqtt_on_message(struct mosquitto *mosq, void *user, const struct mosquitto_message *message) {
    (void)mosq;
    marquee_mqtt *m = (marquee_mqtt *)user;
    if (message->retain) {
        atomic_fetch_add(&m->retained_skipped, 1);
        marquee_mqtt_log("marquee: error: mqtt: skipped a retained message on %s (commands are never retained)\n",
                         message->topic);
        return;
    }
    /* One message is one or more lines; the newline ends its last line, so a message that does not
     * end with one is not glued to the next. */
    if (message->payloadlen > 0) marquee_mqtt_write_all(m->message_fd, message->payload, (size_t)message->payloadlen);
    marquee_mqtt_write_all(m->message_fd, "\n", 1);
}

/* The network thread: connect, run mosquitto_loop while connected, and after a failure wait and
 * reconnect, 1 s at first and twice as long each time up to 30 s. Not mosquitto_loop_forever
 * (nor mosquitto_loop_start, which runs it): its backoff (mosquitto_reconnect_delay_set) never
 * goes back to the short delay after a connection succeeded, so a kiosk that lost its broker a
 * few times would wait 30 s every time after; and it returns for good on a failed DNS lookup or a
 * TLS error, which a kiosk whose network comes up late must outlive. */
static void *marquee_mqtt_thread(void *user) {
    marquee_mqtt *m = (marquee_mqtt *)user;
    /* The run loop takes SIGINT, SIGTERM and SIGHUP through a signalfd; this thread must not. */
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
    int delay = 1;
    int rc = mosquitto_connect(m->mosq, m->host, m->port, m->keepalive);
    for (;;) {
        if (rc == MOSQ_ERR_SUCCESS) {
            while ((rc = mosquitto_loop(m->mosq, 1000, 1)) == MOSQ_ERR_SUCCESS) {
            }
        }
        atomic_store(&m->connected, 0);
        if (atomic_exchange(&m->was_connected, 0)) delay = 1;
        marquee_mqtt_log("marquee: error: mqtt: %s:%d: %s (trying again in %d s)\n", m->host, m->port,
                         rc == MOSQ_ERR_ERRNO ? strerror(errno) : mosquitto_strerror(rc), delay);
        sleep((unsigned)delay);
        delay = delay * 2 > 30 ? 30 : delay * 2;
        rc = mosquitto_reconnect(m->mosq);
    }
    return NULL;
}

/* A client for `host`:`port` whose commands are written to `message_fd`. `topics` are subscribed
 * on every connection; the last will (`offline`, retained) goes on `status_topic`. */
static inline marquee_mqtt *marquee_mqtt_new(const char *client_id, const char *host, int port, const char *status_topic,
                                             const char *const *topics, int topic_count, int message_fd) {
    marquee_mqtt *m = (marquee_mqtt *)calloc(1, sizeof *m);
    if (!m) return NULL;
    /* clean_session false: the broker keeps our subscriptions and QoS 1 commands while we are away. */
    m->mosq = mosquitto_new(client_id, false, m);
    if (!m->mosq) {
        free(m);
        return NULL;
    }
    m->host = strdup(host);
    m->port = port;
    m->keepalive = 30;
    m->message_fd = message_fd;
    m->status_topic = strdup(status_topic);
    m->topic_count = topic_count;
    m->topics = (char **)calloc((size_t)topic_count, sizeof(char *));
    for (int i = 0; i < topic_count; i++) m->topics[i] = strdup(topics[i]);
    atomic_init(&m->outstanding, 0);
    atomic_init(&m->connected, 0);
    atomic_init(&m->retained_skipped, 0);
    atomic_init(&m->was_connected, 0);
    mosquitto_threaded_set(m->mosq, true);
    mosquitto_connect_callback_set(m->mosq, marquee_mqtt_on_connect);
    mosquitto_disconnect_callback_set(m->mosq, marquee_mqtt_on_disconnect);
    mosquitto_publish_callback_set(m->mosq, marquee_mqtt_on_publish);
    mosquitto_message_callback_set(m->mosq, marquee_mqtt_on_message);
    mosquitto_will_set(m->mosq, status_topic, 7, "offline", 1, true);
    return m;
}

static inline struct mosquitto *marquee_mqtt_client(marquee_mqtt *m) { return m->mosq; }

/* Starts the network thread (detached: at exit it ends with the process, and the broker then
 * publishes the will). Returns 0 or an errno value. */
static inline int marquee_mqtt_start(marquee_mqtt *m) {
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, marquee_mqtt_thread, m);
    if (rc == 0) pthread_detach(thread);
    return rc;
}

/* Publishes one line at QoS 1 unless too many publications already wait for the broker's
 * acknowledgement: `away_cap` while the broker is not connected (they would pile up for as long
 * as it is away), `connected_cap` while it is (then they only wait for this thread to send them
 * and for the broker's acknowledgements, which come as fast as the broker takes them, so the one
 * message of a thousand lines, or a batch, is answered whole). Returns 0 when queued, 1 when
 * dropped for `away_cap`, 2 when dropped for `connected_cap`, or a libmosquitto error (negated). */
static inline int marquee_mqtt_publish(marquee_mqtt *m, const char *topic, const void *payload, int length,
                                       int away_cap, int connected_cap) {
    int waiting = atomic_load(&m->outstanding);
    if (atomic_load(&m->connected)) {
        if (waiting >= connected_cap) return 2;
    } else if (waiting >= away_cap) {
        return 1;
    }
    int rc = mosquitto_publish(m->mosq, NULL, topic, length, payload, 1, false);
    /* With QoS 1 a message is queued even when the connection is down (MOSQ_ERR_NO_CONN) and is
     * sent once it is back. */
    if (rc == MOSQ_ERR_SUCCESS || rc == MOSQ_ERR_NO_CONN) {
        atomic_fetch_add(&m->outstanding, 1);
        return 0;
    }
    return -rc;
}

static inline int marquee_mqtt_outstanding(marquee_mqtt *m) { return atomic_load(&m->outstanding); }
static inline int marquee_mqtt_connected(marquee_mqtt *m) { return atomic_load(&m->connected); }

#endif
