# Sourced by the Redis and BullMQ scripts: redis-server on a free port with
# a throw-away directory and no persistence, its PID recorded for cleanup.
start_redis() {
  redis_port=$(free_port)
  local data; data=$(throwaway_dir redis)
  redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$data" --save '' --appendonly no \
    --daemonize no >"$data/redis.log" 2>&1 &
  pids+=($!)
  wait_for 20 "$py" -c "import redis; redis.Redis(port=$redis_port).ping()" \
    || { echo "redis-server did not answer on port $redis_port"; cat "$data/redis.log"; return 1; }
  redis_version=$(redis-server --version | sed -E 's/.*v=([0-9.]+).*/\1/')
}
