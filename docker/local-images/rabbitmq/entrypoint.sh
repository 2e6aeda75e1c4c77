#!/bin/sh
# Writes rabbitmq.conf from RABBITMQ_DEFAULT_USER/RABBITMQ_DEFAULT_PASS (default guest/guest,
# allowed from any host), then runs the command (rabbitmq-server).
set -eu
{
  echo "loopback_users = none"
  echo "default_user = ${RABBITMQ_DEFAULT_USER:-guest}"
  echo "default_pass = ${RABBITMQ_DEFAULT_PASS:-guest}"
  echo "listeners.tcp.default = 5672"
  echo "management.tcp.port = 15672"
} > /etc/rabbitmq/rabbitmq.conf
exec "$@"
