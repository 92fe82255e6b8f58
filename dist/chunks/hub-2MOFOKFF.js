import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  createCapabilityHub
} from "./chunk-BAQE5Y4W.js";
import {
  noCapabilities
} from "./chunk-3FIGPVHJ.js";
import "./chunk-XQWL7OYR.js";
export {
  createCapabilityHub,
  noCapabilities
};
