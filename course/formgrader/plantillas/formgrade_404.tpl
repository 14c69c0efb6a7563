{#- La página de una entrega cuyo cuaderno corregido no está en autograded/. -#}
{% from 'corregir/corregir_macros.html.j2' import nav, header %}
<!DOCTYPE html>
<html lang="es">
<head>
{{ header(dict(resources, guiones=GUIONES), corregir=False) }}
<link rel="stylesheet" href="{{ resources.base_url }}/formgrader/static/css/formgrade.css" />
</head>

<body>
  {{ nav(resources) }}
  <div class="container">
    <div class="panel panel-default">
      <div class="panel-heading">
        <h4 class="panel-title">
          <span>{{ resources.notebook_id }}</span>
          <span class="pull-right">Entrega {{ resources.index + 1 }} de {{ resources.total }}</span>
        </h4>
      </div>
      <div class="panel-body">
        <div id="notebook" class="border-box-sizing">
          <div class="container" id="notebook-container">
            No está el cuaderno corregido de esta entrega: {{ resources.filename }}. Vuelve a corregirla
            (<code>make grade</code>, o el rayo de su fila en «Tareas» › entregas).
          </div>
        </div>
      </div>
    </div>
  </div>
</body>
</html>
