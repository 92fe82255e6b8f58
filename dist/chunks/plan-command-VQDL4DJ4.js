import { createRequire as __plangateCreateRequire } from 'node:module'; const require = __plangateCreateRequire(import.meta.url);
import {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
} from "./chunk-KIOIKIOY.js";
import "./chunk-6NVIIRNY.js";
import "./chunk-GUISNBV7.js";
import "./chunk-JF4VOWI3.js";
import "./chunk-L7UZGG4K.js";
import "./chunk-5QKFIOA3.js";
import "./chunk-ORSRIQN3.js";
import "./chunk-T5TEVDNA.js";
import "./chunk-UBTQZF52.js";
import "./chunk-NMFGPCOO.js";
import "./chunk-XQWL7OYR.js";
export {
  plan,
  planCommand,
  reportUnplanned,
  showPlan
};
