package com.example.idempotency;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal Redis client (RESP2 over one socket, one command at a time) so the Redis store runs
 * with the JDK alone. Replies: byte[] (bulk), String (status), Long (integer), List (array), null.
 * In production pass your client instead (Lettuce, Jedis, Spring's RedisTemplate) through
 * RedisIdempotencyStore.Commands.
 */
public final class RespClient implements RedisIdempotencyStore.Commands, AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    public RespClient(String host, int port, int timeoutMs) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress(host, port), timeoutMs);
        socket.setSoTimeout(timeoutMs);
        socket.setTcpNoDelay(true);
        in = new BufferedInputStream(socket.getInputStream());
        out = new BufferedOutputStream(socket.getOutputStream());
    }

    @Override
    public synchronized Object call(Object... args) throws IOException {
        out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (Object arg : args) {
            byte[] bytes = arg instanceof byte[] ? (byte[]) arg : String.valueOf(arg).getBytes(StandardCharsets.UTF_8);
            out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
        out.flush();
        return reply();
    }

    private Object reply() throws IOException {
        int type = in.read();
        String line = line();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IOException("Redis: " + line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) return null;
                byte[] bytes = in.readNBytes(length);
                line();
                return bytes;
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) return null;
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) items.add(reply());
                return items;
            }
            default:
                throw new IOException("Redis: unexpected reply type " + type);
        }
    }

    private String line() throws IOException {
        StringBuilder text = new StringBuilder();
        int c;
        while ((c = in.read()) != '\r') {
            if (c < 0) throw new IOException("Redis: connection closed");
            text.append((char) c);
        }
        in.read();
        return text.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
