# Sourced by the RabbitMQ script: starts epmd and a RabbitMQ node on free
# ports with a throw-away data directory, every PID recorded for cleanup.
# The consumer timeout is checked on each channel's tick; only
# advanced.config takes `channel_tick_interval` (60 s by default).
start_rabbitmq() {
  local tick_ms=$1
  rmq_port=$(free_port); dist_port=$(free_port); epmd_port=$(free_port)
  rmq_dir=$(throwaway_dir rabbitmq)
  epmd -port "$epmd_port" -address 127.0.0.1 >"$rmq_dir/epmd.log" 2>&1 &
  pids+=($!)
  cat >"$rmq_dir/rabbitmq.conf" <<CONF
listeners.tcp.1 = 127.0.0.1:$rmq_port
loopback_users = none
consumer_timeout = ${RABBITMQ_CONSUMER_TIMEOUT_MS:-1000}
CONF
  printf '[{rabbit, [{channel_tick_interval, %s}]}].\n' "$tick_ms" >"$rmq_dir/advanced.config"
  printf '[].\n' >"$rmq_dir/enabled_plugins"
  # The wrapper script, the Erlang VM and its helpers share one process
  # group, stopped together; `-start_epmd false`: only the epmd above, the
  # node never starts a daemon of its own.
  start_group env HOME="$rmq_dir" ERL_EPMD_PORT="$epmd_port" ERL_EPMD_ADDRESS=127.0.0.1 \
    RABBITMQ_NODENAME="conformance$rmq_port@localhost" RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 \
    RABBITMQ_NODE_PORT="$rmq_port" RABBITMQ_DIST_PORT="$dist_port" \
    RABBITMQ_CONFIG_FILE="$rmq_dir/rabbitmq.conf" RABBITMQ_ADVANCED_CONFIG_FILE="$rmq_dir/advanced.config" \
    RABBITMQ_ENABLED_PLUGINS_FILE="$rmq_dir/enabled_plugins" RABBITMQ_MNESIA_BASE="$rmq_dir/mnesia" \
    RABBITMQ_LOG_BASE="$rmq_dir/log" RABBITMQ_PID_FILE="$rmq_dir/rabbit.pid" \
    RABBITMQ_CONF_ENV_FILE="$rmq_dir/none.conf" RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-start_epmd false" \
    /usr/lib/rabbitmq/bin/rabbitmq-server </dev/null >"$rmq_dir/server.log" 2>&1
  wait_for 60 "$py" -c "import pika; pika.BlockingConnection(pika.ConnectionParameters('127.0.0.1', $rmq_port)).close()" \
    || { echo "RabbitMQ did not answer on port $rmq_port"; tail -30 "$rmq_dir/server.log"; return 1; }
}
