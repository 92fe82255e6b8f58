import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-3OD47A2Y.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-IUB4ANJS.js";
import "./chunk-HRHL5WUQ.js";
import "./chunk-L7UZGG4K.js";
import "./chunk-5QKFIOA3.js";
import "./chunk-ORSRIQN3.js";
import "./chunk-WFUTEVU3.js";
import "./chunk-UBTQZF52.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
