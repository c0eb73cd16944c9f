// Preloaded into peers that listen on every interface by default: forces 127.0.0.1.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || typeof args[0] === 'string') {
    const callback = typeof args[args.length - 1] === 'function' ? args.pop() : undefined;
    return listen.call(this, Number(args[0]), '127.0.0.1', callback);
  }
  return listen.apply(this, args);
};
