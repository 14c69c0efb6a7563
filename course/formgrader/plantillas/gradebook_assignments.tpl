{%- extends 'gradebook_base.tpl' -%}

{%- block head -%}
<script src="{{ base_url }}{{ GUIONES }}/gradebook_assignments.js"></script>
{%- endblock -%}

{%- block breadcrumbs -%}
<ol class="breadcrumb">
  <li class="active">Corregir a mano</li>
</ol>
{%- endblock -%}

{%- block table_header -%}
<tr>
  <th>Tarea</th>
  <th class="text-center">Fecha de entrega</th>
  <th class="text-center">Entregas</th>
  <th class="text-center">Nota media</th>
</tr>
{%- endblock -%}

{%- block table_body -%}
<tr><td colspan="4">Cargando…</td></tr>
{%- endblock -%}
