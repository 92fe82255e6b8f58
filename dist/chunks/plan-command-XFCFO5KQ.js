import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-K4QA3NE7.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-OBEXGYWC.js";
import "./chunk-B2ZGCE7H.js";
import "./chunk-L7UZGG4K.js";
import "./chunk-5QKFIOA3.js";
import "./chunk-ORSRIQN3.js";
import "./chunk-JWYNXQNJ.js";
import "./chunk-UBTQZF52.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
