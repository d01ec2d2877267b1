"use strict";

const listeners = new Map();

function on(name, listener) {
  listeners.set(name, listener);
}

module.exports = { on };
